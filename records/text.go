package records

import (
	"bufio"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// Text renders records for a person at a terminal: a heading per record, indented by nesting,
// then its fields aligned, money as £ with thousands separators, lists one item a line.
func Text(recs []Record, warnings []string) string {
	var b strings.Builder
	_ = WriteText(&b, slices.Values(recs), warnings)
	return b.String()
}

// WriteText is Text to w for a sequence of records, holding one record at a time.
func WriteText(w io.Writer, recs iter.Seq[Record], warnings []string) error {
	b := bufio.NewWriterSize(w, 64<<10)
	n := 0
	for r := range recs {
		if r.Depth == 0 && n > 0 {
			b.WriteByte('\n')
		}
		writeTextRecord(b, r)
		n++
	}
	if n == 0 {
		b.WriteString("(nothing to show)\n")
	}
	for _, w := range warnings {
		b.WriteString("\nwarning: " + w + "\n")
	}
	return b.Flush()
}

func writeTextRecord(b *bufio.Writer, r Record) {
	r.resolve()
	pad := strings.Repeat("    ", r.Depth)
	b.WriteString(pad + heading(r) + "\n")
	width := 0
	for _, f := range r.Fields {
		width = max(width, len(f.Key))
	}
	for _, f := range r.Fields {
		label := strings.ReplaceAll(f.Key, "_", " ")
		label += strings.Repeat(" ", width-len(f.Key))
		if (f.Type == "list" || f.Type == "prose") && strings.Contains(f.Value, ListSeparator) && len(f.Value) > 60 {
			b.WriteString(pad + "  " + label + "\n")
			for _, item := range strings.Split(f.Value, ListSeparator) {
				b.WriteString(pad + "      " + item + "\n")
			}
			continue
		}
		b.WriteString(pad + "  " + label + "  " + textValue(f) + "\n")
	}
}

func heading(r Record) string {
	parts := []string{strings.ToUpper(strings.ReplaceAll(r.Kind, "_", " "))}
	for _, p := range []string{r.Entity, r.Period, r.Timestamp} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	h := strings.Join(parts, "  ")
	if r.Source != "" {
		h += "  (" + r.Source + ")"
	}
	return h
}

func textValue(f Field) string {
	if f.Type == "money" {
		return Pounds(f.Value)
	}
	return f.Value
}

// Pounds formats a 2-decimal GBP string as £1,234.50 (−£30.00 for negatives).
func Pounds(s string) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	sign := ""
	if d.IsNegative() {
		sign = "-"
		d = d.Neg()
	}
	fixed := d.StringFixed(2)
	whole, frac, _ := strings.Cut(fixed, ".")
	var g []string
	for len(whole) > 3 {
		g = append([]string{whole[len(whole)-3:]}, g...)
		whole = whole[:len(whole)-3]
	}
	g = append([]string{whole}, g...)
	return sign + "£" + strings.Join(g, ",") + "." + frac
}
