package model

import "github.com/shopspring/decimal"

// AppendJSON appends the JSON form MarshalJSON writes ("1234.50"), without allocating: the
// report writer calls it for every figure of a large report.
func (m Money) AppendJSON(b []byte) []byte {
	b = append(b, '"')
	b = m.appendFixed(b)
	return append(b, '"')
}

// AppendString appends the form String writes.
func (m Money) AppendString(b []byte) []byte { return m.appendFixed(b) }

// AppendText appends the text of the JSON string AppendJSON writes (encoding.TextAppender): a
// report's records write figures through it.
func (m Money) AppendText(b []byte) ([]byte, error) { return m.appendFixed(b), nil }

// AppendJSON appends the JSON form MarshalJSON writes ("4.1565"), without allocating when the
// value is held compactly.
func (d Decimal) AppendJSON(b []byte) []byte {
	b = append(b, '"')
	b = d.AppendString(b)
	return append(b, '"')
}

// AppendText appends the text of the JSON string AppendJSON writes (encoding.TextAppender).
func (d Decimal) AppendText(b []byte) ([]byte, error) { return d.AppendString(b), nil }

// AppendString appends the form String writes.
func (d Decimal) AppendString(b []byte) []byte {
	if d.v.big != nil || decimal.UseScientificNotation {
		return append(b, d.v.decimal().String()...)
	}
	return d.v.appendString(b, decimal.TrimTrailingZeros)
}

// AppendExact appends the value at the scale it was given ("150.00" stays "150.00"): the
// form of decimal.Decimal's StringFixed at the value's own number of decimal places (none for
// a whole exponent), which the ledger writer and the JSON transaction form use. It does not
// allocate when the value is held compactly.
func (d Decimal) AppendExact(b []byte) []byte {
	if d.v.big != nil {
		x := d.v.decimal()
		return append(b, x.StringFixed(max(0, -x.Exponent()))...)
	}
	return d.v.appendString(b, false)
}

// AppendJSON appends the JSON form MarshalJSON writes ("2024-04-06").
func (d Date) AppendJSON(b []byte) []byte {
	b = append(b, '"')
	b = d.AppendString(b)
	return append(b, '"')
}

// AppendText appends the text of the JSON string AppendJSON writes (encoding.TextAppender).
func (d Date) AppendText(b []byte) ([]byte, error) { return d.AppendString(b), nil }

// AppendString appends the form String writes (YYYY-MM-DD), computing the civil date from
// the day number directly for years 1 to 9999 rather than through time.Time.
func (d Date) AppendString(b []byte) []byte {
	y, m, day := civil(int64(d))
	if y < 1 || y > 9999 {
		return append(b, d.String()...)
	}
	return append(b,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-',
		byte('0'+day/10), byte('0'+day%10))
}

// civil converts days since 1970-01-01 to a proleptic Gregorian year, month and day (the
// days-from-civil inverse of H. Hinnant's date algorithms).
func civil(z int64) (year, month, day int64) {
	z += 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11]
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}
