package envelope

// Code is a stable error code, published in tools.json. Never rename one: agents branch on them.
type Code string

// The error codes.
const (
	UsageError        Code = "usage_error"
	InvalidArgument   Code = "invalid_argument"
	ParseError        Code = "parse_error"
	ValidationError   Code = "validation_error"
	NotFound          Code = "not_found"
	FXRateUnavailable Code = "fx_rate_unavailable"
	PermissionDenied  Code = "permission_denied"
	IOError           Code = "io_error"
	InternalError     Code = "internal_error"
)

// CodeInfo describes one code for the published contract.
type CodeInfo struct {
	Code        Code   `json:"code"`
	Description string `json:"description"`
	Retryable   bool   `json:"retryable"`
	ExitCode    int    `json:"exit_code"`
}

// Codes lists every code with what it means and what a caller should do.
var Codes = []CodeInfo{
	{UsageError, "The command line or request is malformed: unknown command or argument, missing required argument, wrong output flag. Fix the call; see the command's usage.", false, 2},
	{InvalidArgument, "An argument has a value outside what the command accepts (bad year, unknown currency code, bad date). The message names the argument and the value; the hint lists what it takes, beginning \"Did you mean …?\" when one allowed value is that value but for case or two letters.", false, 1},
	{ParseError, "A ledger line could not be read. context.line (and context.file) locate it; context.value is the offending text.", false, 1},
	{ValidationError, "The ledger is well formed but not valid: a sale of more shares than held, a capital return above cost, a disposal before 6 April 2008, a zero or negative amount.", false, 1},
	{NotFound, "The thing asked for does not exist (for example no disposal of that ticker on that date); context lists what does exist.", false, 1},
	{FXRateUnavailable, "No HMRC monthly exchange rate for that currency and month; context lists the nearest months available.", false, 1},
	{PermissionDenied, "A file path outside the directories this server may read. Pass the ledger inline (cgt_content) or start the server with --root.", false, 1},
	{IOError, "A file could not be read or written, or (fx.update) a URL could not be fetched; the message names it.", true, 1},
	{InternalError, "A fault in cgt itself. Report it with the input that caused it.", false, 1},
}

// Valid reports whether c is one of the published codes.
func (c Code) Valid() bool {
	for _, ci := range Codes {
		if ci.Code == c {
			return true
		}
	}
	return false
}

// ExitCode is the CLI exit status for a failed result with this code: 2 for usage errors, 1
// otherwise.
func (c Code) ExitCode() int {
	if c == UsageError {
		return 2
	}
	return 1
}
