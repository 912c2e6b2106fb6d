// Package digest is SHA-256 (FIPS 180-4) in plain Go. The standard library's crypto/sha256
// links Go's FIPS 140 module, about 100 KB of code the browser app would download only to
// fingerprint import rows; this gives the same digests without it. It is for identifying
// content, not for security: it is not constant-time and has no assembly.
package digest

import "encoding/binary"

// Size is the length of a digest in bytes.
const Size = 32

const blockSize = 64

var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// SHA256 computes SHA-256 incrementally: Write any number of times, then Sum.
type SHA256 struct {
	h   [8]uint32
	buf [blockSize]byte
	nb  int    // bytes waiting in buf
	len uint64 // bytes written in all
}

// New returns a SHA-256 ready for its first Write.
func New() *SHA256 {
	d := new(SHA256)
	d.Reset()
	return d
}

// Reset forgets everything written, as New.
func (d *SHA256) Reset() {
	d.h = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	d.nb, d.len = 0, 0
}

// Write adds p to the message; it never fails (the error is for io.Writer).
func (d *SHA256) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nb > 0 {
		c := copy(d.buf[d.nb:], p)
		d.nb += c
		p = p[c:]
		if d.nb < blockSize {
			return n, nil
		}
		d.block(d.buf[:])
		d.nb = 0
	}
	for len(p) >= blockSize {
		d.block(p[:blockSize])
		p = p[blockSize:]
	}
	d.nb = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest of what was written so far to b; the state is unchanged, so more
// can be written after.
func (d *SHA256) Sum(b []byte) []byte {
	c := *d
	var pad [blockSize + 8]byte
	pad[0] = 0x80
	padLen := blockSize - (c.nb+8)%blockSize // 1..64 bytes: 0x80 then zeros
	binary.BigEndian.PutUint64(pad[padLen:], c.len<<3)
	c.Write(pad[:padLen+8])
	for _, v := range c.h {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	return b
}

// Sum256 is the SHA-256 digest of data.
func Sum256(data []byte) [Size]byte {
	var d SHA256
	d.Reset()
	d.Write(data)
	var out [Size]byte
	d.Sum(out[:0])
	return out
}

func (d *SHA256) block(p []byte) {
	var w [64]uint32
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for i := 16; i < 64; i++ {
		s0 := rotr(w[i-15], 7) ^ rotr(w[i-15], 18) ^ (w[i-15] >> 3)
		s1 := rotr(w[i-2], 17) ^ rotr(w[i-2], 19) ^ (w[i-2] >> 10)
		w[i] = w[i-16] + s0 + w[i-7] + s1
	}
	a, b, c, dd, e, f, g, h := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4], d.h[5], d.h[6], d.h[7]
	for i := range 64 {
		t1 := h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (^e & g)) + k[i] + w[i]
		t2 := (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))
		h, g, f, e, dd, c, b, a = g, f, e, dd+t1, c, b, a, t1+t2
	}
	d.h[0] += a
	d.h[1] += b
	d.h[2] += c
	d.h[3] += dd
	d.h[4] += e
	d.h[5] += f
	d.h[6] += g
	d.h[7] += h
}

func rotr(x uint32, n uint) uint32 { return x>>n | x<<(32-n) }
