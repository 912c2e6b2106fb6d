package commands

import (
	"github.com/cgt-tools/cgt/cgt/eri"
)

// FundArgs is the argument of every command that runs the calculation: whether the bundled
// excess reportable income figures of offshore reporting funds apply (written ERI lines
// apply either way).
type FundArgs struct {
	ERI string `json:"eri,omitempty" jsonschema:"enum=on,enum=off,default=on" jsonschema_description:"Bundled fund ERI figures: on or off."`
}

// table is the bundled table, or nil when the figures are turned off.
func (a FundArgs) table() *eri.Table {
	if a.ERI == "off" {
		return nil
	}
	return eri.Bundled()
}
