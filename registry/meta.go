// Package registry holds every cgt command as typed metadata plus a handler, binds and validates
// arguments from any front end, and executes commands into the result envelope. The CLI, the MCP
// server, the tool-cli server and the generated contract are all driven from it.
package registry

// SideEffect says what a command may touch. Front ends use it to decide what to allow.
type SideEffect string

// The side-effect levels, from least to most reach.
const (
	PureCalculation SideEffect = "pure_calculation"
	LocalFileRead   SideEffect = "local_file_read"
	LocalFileWrite  SideEffect = "local_file_write"
	NetworkRead     SideEffect = "network_read_only"
	// CacheUpdate fetches from the network into cgt's own cache (fx.update): a person runs it
	// from the command line; servers never list it, so no agent runs it on its own.
	CacheUpdate SideEffect = "network_cache_update"
)

// SideEffectLevel describes one level for the published contract.
type SideEffectLevel struct {
	Level       SideEffect `json:"level"`
	Description string     `json:"description"`
	ReadOnly    bool       `json:"read_only"`
	OpenWorld   bool       `json:"open_world"`
	// Unserved levels are the command line's only: the MCP and tool servers do not list
	// their commands.
	Unserved bool `json:"-"`
}

// SideEffectLevels lists every level with its meaning.
var SideEffectLevels = []SideEffectLevel{
	{PureCalculation, "Computes from its arguments and cgt's bundled data (HMRC rates, tax-year tables) only. Safe to call any time.", true, false, false},
	{LocalFileRead, "May read the files its arguments name (ledgers in `path`, HMRC rate files in `rates`); otherwise works on the arguments alone. Never writes. Servers only honour paths inside the directories the operator allowed.", true, false, false},
	{LocalFileWrite, "Writes a file the caller named.", false, false, false},
	{NetworkRead, "Reads from the network.", true, true, false},
	{CacheUpdate, "Fetches files from the network and writes them to cgt's own cache folder, never a file the caller named. Command line only: servers do not list it.", false, true, true},
}

// Served reports whether the MCP and tool servers list commands of this level.
func (s SideEffect) Served() bool {
	for _, l := range SideEffectLevels {
		if l.Level == s {
			return !l.Unserved
		}
	}
	return true
}

// Description returns the published meaning of a level.
func (s SideEffect) Description() string {
	for _, l := range SideEffectLevels {
		if l.Level == s {
			return l.Description
		}
	}
	return ""
}

// Example is one runnable example of a command: the CLI words after the command name, and
// what it shows. Every example runs in a test.
type Example struct {
	Description string   `json:"description"`
	Args        []string `json:"args"`
}

// Agent holds the routing hints published for agents.
type Agent struct {
	UseWhen   []string `json:"use_when"`
	AvoidWhen []string `json:"avoid_when"`
	NextSteps []string `json:"next_steps"` // names of registered commands
}

// Meta is everything about a command except its types and handler.
type Meta struct {
	Name           string // namespace.verb, e.g. report.calculate
	MCPName        string // e.g. calculate_report
	Summary        string // one line
	Description    string // a paragraph
	Usage          string // CLI usage line
	Examples       []Example
	SideEffects    SideEffect
	AuthRequired   bool
	RateLimitNotes string
	CitationFields []string // result fields an answer should cite
	// KeyFields are the record fields most asked for (taxable_gain, tax_due): first among the
	// names the fields argument's schema lists, so a list cut short (tools/list) keeps them.
	KeyFields []string
	Agent     Agent
}

// Namespace is the part of the name before the dot.
func (m *Meta) Namespace() string {
	for i := 0; i < len(m.Name); i++ {
		if m.Name[i] == '.' {
			return m.Name[:i]
		}
	}
	return m.Name
}
