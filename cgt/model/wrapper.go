package model

import "strings"

// WrapperType is the wrapper an account label looks like (ISA, LISA, JISA or SIPP), or "":
// a word of the label is one of them, or starts or ends with one ("MYISA", "SIPP2"), or it
// says "Stocks & Shares" or "S&S".
func WrapperType(label string) string {
	up := strings.ToUpper(label)
	words := strings.FieldsFunc(up, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') })
	for _, w := range words {
		for _, typ := range []string{"LISA", "JISA", "SIPP", "ISA"} {
			if w == typ || strings.HasPrefix(w, typ) && digitsOnly(w[len(typ):]) || strings.HasSuffix(w, typ) && len(w) <= len(typ)+4 {
				if typ == "ISA" && (w == "VISA" || w == "PISA") {
					continue
				}
				return typ
			}
		}
	}
	if strings.Contains(up, "STOCKS & SHARES") || strings.Contains(up, "STOCKS AND SHARES") || strings.Contains(up, "S&S") {
		return "ISA"
	}
	return ""
}

func digitsOnly(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
