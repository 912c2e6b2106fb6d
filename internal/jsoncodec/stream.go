package jsoncodec

import (
	"encoding/json"
	"io"
	"reflect"
)

// Encoder writes JSON values to a stream as encoding/json.Encoder does, each followed by a
// newline.
type Encoder struct {
	_ [0]func() // not comparable: no equality function in the module

	w              io.Writer
	err            error
	html           bool
	prefix, indent string
}

func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w, html: true} }

// SetEscapeHTML sets whether <, > and & in strings are escaped (they are by default).
func (enc *Encoder) SetEscapeHTML(on bool) { enc.html = on }

// SetIndent lays out each value over lines, as json.MarshalIndent does.
func (enc *Encoder) SetIndent(prefix, indent string) { enc.prefix, enc.indent = prefix, indent }

func (enc *Encoder) Encode(v any) error {
	if enc.err != nil {
		return enc.err
	}
	e := encoder{html: enc.html}
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return err
	}
	e.buf = append(e.buf, '\n')
	b := e.buf
	if enc.prefix != "" || enc.indent != "" {
		b = indent(make([]byte, 0, 2*len(b)), b, enc.prefix, enc.indent)
	}
	if _, err := enc.w.Write(b); err != nil {
		enc.err = err
		return err
	}
	return nil
}

// Decoder reads JSON values and tokens from a stream as encoding/json.Decoder does. It reads
// the whole stream at its first call: cgt decodes documents already in memory.
type Decoder struct {
	r         io.Reader
	buf       []byte
	loaded    bool
	pos       int
	counted   int64 // bytes scanned for values, which syntax errors' offsets count
	useNumber bool
	err       error
	state     tokenState
	stack     []tokenState
}

type tokenState uint8

const (
	topValue tokenState = iota
	arrayStart
	arrayValue
	arrayComma
	objectStart
	objectKey
	objectColon
	objectValue
	objectComma
)

func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

// UseNumber decodes numbers into an interface as json.Number rather than float64.
func (dec *Decoder) UseNumber() { dec.useNumber = true }

// InputOffset is the offset of the decoder's position in the stream.
func (dec *Decoder) InputOffset() int64 { return int64(dec.pos) }

func (dec *Decoder) load() error {
	if !dec.loaded {
		dec.loaded = true
		dec.buf, dec.err = io.ReadAll(dec.r)
	}
	return dec.err
}

// Decode reads the next value into v.
func (dec *Decoder) Decode(v any) error {
	if err := dec.load(); err != nil {
		return err
	}
	if err := dec.beforeValue(); err != nil {
		return err
	}
	if !dec.valueAllowed() {
		return &SyntaxError{"not at beginning of value", dec.InputOffset()}
	}
	end, err := dec.valueEnd()
	if err != nil {
		return err
	}
	d := decoder{data: dec.buf[dec.pos:end], useNumber: dec.useNumber}
	dec.pos = end
	err = d.unmarshal(v)
	dec.afterValue()
	return err
}

// valueEnd finds the end of the next value; a value cut short by the end of the stream is
// io.ErrUnexpectedEOF, nothing but space io.EOF.
func (dec *Decoder) valueEnd() (int, error) {
	start := skipSpace(dec.buf, dec.pos)
	if start == len(dec.buf) {
		dec.err = io.EOF
		return 0, dec.err
	}
	s := validator{data: dec.buf}
	end, err := s.value(start, 0)
	switch {
	case err != nil && s.atEOF:
		dec.err = io.ErrUnexpectedEOF
	case err != nil:
		se := err.(*SyntaxError)
		se.Offset += dec.counted - int64(dec.pos)
		dec.err = se
	}
	if err != nil {
		return 0, dec.err
	}
	dec.counted += int64(end - dec.pos)
	return end, nil
}

func (dec *Decoder) beforeValue() error {
	switch dec.state {
	case arrayComma:
		if c, err := dec.peek(); err != nil {
			return err
		} else if c != ',' {
			return &SyntaxError{"expected comma after array element", dec.InputOffset()}
		}
		dec.pos++
		dec.state = arrayValue
	case objectColon:
		if c, err := dec.peek(); err != nil {
			return err
		} else if c != ':' {
			return &SyntaxError{"expected colon after object key", dec.InputOffset()}
		}
		dec.pos++
		dec.state = objectValue
	}
	return nil
}

func (dec *Decoder) valueAllowed() bool {
	switch dec.state {
	case topValue, arrayStart, arrayValue, objectValue:
		return true
	}
	return false
}

func (dec *Decoder) afterValue() {
	switch dec.state {
	case arrayStart, arrayValue:
		dec.state = arrayComma
	case objectValue:
		dec.state = objectComma
	}
}

// peek skips space and returns the next byte, io.EOF at the end.
func (dec *Decoder) peek() (byte, error) {
	if err := dec.load(); err != nil {
		return 0, err
	}
	i := skipSpace(dec.buf, dec.pos)
	if i == len(dec.buf) {
		return 0, io.EOF // the position stays before the trailing space
	}
	dec.pos = i
	return dec.buf[i], nil
}

// More reports whether the array or object being read has another element.
func (dec *Decoder) More() bool {
	c, err := dec.peek()
	return err == nil && c != ']' && c != '}'
}

// Token returns the next delimiter (json.Delim), string, number, bool or nil, checking that
// delimiters, commas and colons come in a valid order.
func (dec *Decoder) Token() (json.Token, error) {
	for {
		c, err := dec.peek()
		if err != nil {
			return nil, err
		}
		switch c {
		case '[', '{':
			if !dec.valueAllowed() {
				return dec.tokenError(c)
			}
			dec.pos++
			dec.stack = append(dec.stack, dec.state)
			dec.state = arrayStart
			if c == '{' {
				dec.state = objectStart
			}
			return json.Delim(c), nil
		case ']', '}':
			start, comma := arrayStart, arrayComma
			if c == '}' {
				start, comma = objectStart, objectComma
			}
			if dec.state != start && dec.state != comma {
				return dec.tokenError(c)
			}
			dec.pos++
			dec.state = dec.stack[len(dec.stack)-1]
			dec.stack = dec.stack[:len(dec.stack)-1]
			dec.afterValue()
			return json.Delim(c), nil
		case ':':
			if dec.state != objectColon {
				return dec.tokenError(c)
			}
			dec.pos++
			dec.state = objectValue
		case ',':
			switch dec.state {
			case arrayComma:
				dec.state = arrayValue
			case objectComma:
				dec.state = objectKey
			default:
				return dec.tokenError(c)
			}
			dec.pos++
		default:
			if c == '"' && (dec.state == objectStart || dec.state == objectKey) {
				var key string
				outer := dec.state
				dec.state = topValue
				err := dec.Decode(&key)
				dec.state = outer
				if err != nil {
					return nil, err
				}
				dec.state = objectColon
				return key, nil
			}
			if !dec.valueAllowed() {
				return dec.tokenError(c)
			}
			var x any
			if err := dec.Decode(&x); err != nil {
				return nil, err
			}
			return x, nil
		}
	}
}

func (dec *Decoder) tokenError(c byte) (json.Token, error) {
	context := ""
	switch dec.state {
	case topValue, arrayStart, arrayValue, objectValue:
		context = " looking for beginning of value"
	case arrayComma:
		context = " after array element"
	case objectKey:
		context = " looking for beginning of object key string"
	case objectColon:
		context = " after object key"
	case objectComma:
		context = " after object key:value pair"
	}
	return nil, &SyntaxError{"invalid character " + quoteChar(c) + context, dec.InputOffset()}
}
