package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

func TestSum256MatchesKnownDigests(t *testing.T) {
	cases := map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	}
	for in, want := range cases {
		got := Sum256([]byte(in))
		if hex.EncodeToString(got[:]) != want {
			t.Errorf("Sum256(%q) = %x, want %s", in, got, want)
		}
	}
}

func TestSum256MatchesStandardLibraryAtEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 1100 {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		if got, want := Sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
}

func TestWriteInPiecesMatchesStandardLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 500 {
		d, std := New(), sha256.New()
		for range r.IntN(20) {
			p := make([]byte, r.IntN(200))
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			d.Write(p)
			std.Write(p)
			if round%7 == 0 { // Sum mid-stream leaves the state as it was
				d.Sum(nil)
			}
		}
		if got, want := d.Sum([]byte("x")), std.Sum([]byte("x")); string(got) != string(want) {
			t.Fatalf("round %d: %x, want %x", round, got, want)
		}
	}
}

func FuzzSum256MatchesStandardLibrary(f *testing.F) {
	f.Add([]byte(""), 0)
	f.Add([]byte("trading212|2024-01-02|BUY|VWRL|10|100.00"), 5)
	f.Add(make([]byte, 119), 55)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		if got, want := Sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("Sum256: %x, want %x", got, want)
		}
		if split < 0 {
			split = -split
		}
		if len(data) > 0 {
			split %= len(data) + 1
		} else {
			split = 0
		}
		d := New()
		d.Write(data[:split])
		d.Write(data[split:])
		if got, want := d.Sum(nil), sha256.Sum256(data); string(got) != string(want[:]) {
			t.Fatalf("split %d: %x, want %x", split, got, want)
		}
	})
}
