package tax

import "strings"

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
