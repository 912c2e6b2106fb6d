package commands

import (
	"github.com/cgt-tools/cgt/cgt/eri"
	"github.com/cgt-tools/cgt/envelope"
)

// FundArgs is the argument of every command that runs the calculation: whether the bundled
// excess reportable income figures of offshore reporting funds apply (written ERI lines
// apply either way). The values are checked here rather than by an enum in the schema, which
// every tool list would carry.
type FundArgs struct {
	ERI string `json:"eri,omitempty" jsonschema_description:"Bundled ERI: on|off."`
}

// table is the bundled table, or nil when the figures are turned off.
func (a FundArgs) table() (*eri.Table, error) {
	switch a.ERI {
	case "", "on", "ON", "On":
		return eri.Bundled(), nil
	case "off", "OFF", "Off":
		return nil, nil
	}
	return nil, envelope.New(envelope.InvalidArgument, "eri = \""+a.ERI+"\": give on (apply the bundled fund ERI figures, the default) or off",
		"eri=off leaves out the bundled figures; written ERI lines apply either way.", `{"eri":"off"}`).With("argument", "eri").With("value", a.ERI)
}
