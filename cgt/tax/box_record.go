package tax

import (
	"strings"

	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// RecordField names the box as a field of its own in the dense formats: box24=30231, or, on
// a form whose box numbers are not confirmed, the label's words (box_disposal_proceeds=...).
func (b Box) RecordField() (key, value string) {
	if b.Box != "" {
		return "box" + b.Box, b.Value
	}
	label, _, _ := strings.Cut(b.Label, "(")
	label, _, _ = strings.Cut(label, ",")
	return "box_" + strings.Join(strings.Fields(strings.ToLower(label)), "_"), b.Value
}

// RecordFieldNames are every name RecordField gives: the numbered boxes of the forms from
// 2020/21 (box 51 only on 2024/25's), then the label names of the earlier forms.
func (Box) RecordFieldNames() []string {
	var out []string
	for _, start := range []int{2024, layoutFrom - 1} {
		boxes, _ := Boxes(taxyear.Year{Start: start}, Figures{})
		for _, b := range boxes {
			k, _ := b.RecordField()
			out = append(out, k)
		}
	}
	return out
}
