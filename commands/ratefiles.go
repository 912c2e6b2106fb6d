package commands

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// rateFile is one rates file as read.
type rateFile struct {
	name string
	data []byte
}

// readRateFiles reads every file named, expanding directories to their .xml files. A file
// named twice (itself and through its directory) is read once.
func readRateFiles(deps *registry.Deps, paths []string) ([]rateFile, error) {
	var files []rateFile
	seen := map[string]bool{}
	for _, p := range paths {
		names, err := rateFileNames(deps, p)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if seen[filepath.Clean(n)] {
				continue
			}
			seen[filepath.Clean(n)] = true
			data, err := readRateFile(deps, n)
			if err != nil {
				return nil, err
			}
			files = append(files, rateFile{n, data})
		}
	}
	return files, nil
}

// rateFileNames is the path itself for a file, or the .xml files of a directory.
func rateFileNames(deps *registry.Deps, p string) ([]string, error) {
	if p == "-" || strings.TrimSpace(p) == "" {
		return nil, envelope.New(envelope.InvalidArgument, fmt.Sprintf("rates %q is not a file name", p),
			"Name the HMRC rate file you downloaded, or the directory that holds it; rates are not read from standard input.",
			ratesExample).With("value", p).With("argument", "rates")
	}
	if deps.ReadDir == nil {
		return []string{p}, nil
	}
	names, err := deps.ReadDir(p)
	if errors.Is(err, registry.ErrNotDir) {
		return []string{p}, nil
	}
	if err != nil {
		return nil, rateReadError(p, err)
	}
	var xmlFiles []string
	for _, n := range names {
		if strings.EqualFold(filepath.Ext(n), ".xml") {
			xmlFiles = append(xmlFiles, filepath.Join(p, n))
		}
	}
	if len(xmlFiles) == 0 {
		return nil, noXMLFiles(p, names)
	}
	return xmlFiles, nil
}

func noXMLFiles(dir string, names []string) error {
	msg := "rates directory " + dir + " holds no .xml files"
	if len(names) > 0 {
		shown := names[:min(len(names), 5)]
		msg += " (it holds " + strings.Join(shown, ", ")
		if len(names) > len(shown) {
			msg += fmt.Sprintf(" and %d more", len(names)-len(shown))
		}
		msg += ")"
	}
	return envelope.New(envelope.InvalidArgument, msg,
		"Put HMRC's monthly exchange-rate XML files in the directory, or name the files themselves. "+ratesDownload,
		"cgt report.calculate ledger.cgt --rates rates/", ratesExample).
		With("value", dir).With("path", dir).With("files", nonNilStrings(names)).With("argument", "rates")
}

func readRateFile(deps *registry.Deps, p string) ([]byte, error) {
	if deps.ReadFile == nil {
		return nil, envelope.New(envelope.PermissionDenied, "this front end cannot read files (rates "+p+")",
			"Run the command in the CLI, or through a server started with --root DIR.").With("path", p).With("argument", "rates")
	}
	data, err := deps.ReadFile(p)
	if err != nil {
		return nil, rateReadError(p, err)
	}
	return data, nil
}

// rateReadError keeps the front end's own error (a path outside the server's roots) with a
// hint about rate files, and makes any other failure an io_error naming the file.
func rateReadError(p string, err error) error {
	var ee *envelope.Error
	if errors.As(err, &ee) {
		if ee.Code == envelope.PermissionDenied {
			ee.Hint = "Name a rate file inside the directories this server may read, or ask the operator to add its directory with --root DIR."
		}
		return ee.With("argument", "rates")
	}
	return envelope.New(envelope.IOError, "cannot read rate file "+p+": "+unwrapPathError(err),
		"Check the path; relative paths are relative to the working directory.", ratesExample).
		With("path", p).With("argument", "rates")
}

// fileMonth is one month's rates and the file they came from.
type fileMonth struct {
	file  string
	month fx.Month
}

// readMonths reads each file as one HMRC month, sorted by month. The same month in two files
// is accepted when the rates agree and is an error when they do not. The reader's notes
// (entries skipped) come back as warnings.
func readMonths(files []rateFile) ([]fileMonth, []string, error) {
	var months []fileMonth
	var warnings []string
	byPeriod := map[string]int{}
	for _, f := range files {
		m, err := readMonth(f)
		if err != nil {
			return nil, warnings, err
		}
		if i, dup := byPeriod[m.Period]; dup {
			if err := sameRates(months[i], fileMonth{f.name, m}); err != nil {
				return nil, warnings, err
			}
			continue
		}
		byPeriod[m.Period] = len(months)
		months = append(months, fileMonth{f.name, m})
		for _, n := range m.Notes {
			warnings = append(warnings, "rate file "+f.name+": "+n)
		}
	}
	sort.Slice(months, func(i, j int) bool { return months[i].month.Period < months[j].month.Period })
	return months, warnings, nil
}

func readMonth(f rateFile) (fx.Month, error) {
	if err := checkXML(f); err != nil {
		return fx.Month{}, err
	}
	m, err := fx.ReadMonthly(bytes.NewReader(f.data))
	if err != nil {
		return fx.Month{}, rateParseError(f, err)
	}
	return m, nil
}

// checkXML refuses, before the XML reader, what is plainly not XML (HMRC's CSV file, a saved
// web page in text): the reader's own message would only say the XML ended early.
func checkXML(f rateFile) error {
	b := bytes.TrimPrefix(f.data, []byte{0xEF, 0xBB, 0xBF})
	if bytes.HasPrefix(b, []byte{0xFE, 0xFF}) || bytes.HasPrefix(b, []byte{0xFF, 0xFE}) {
		return nil // UTF-16, which the reader converts
	}
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) > 0 && b[0] == '<' {
		return nil
	}
	e := envelope.New(envelope.ParseError, "rate file "+f.name+" is empty",
		"Give HMRC's monthly rates in XML form (not the CSV file or the web page). "+ratesDownload,
		ratesExample).With("file", f.name).With("argument", "rates")
	if len(b) > 0 {
		e.Message = fmt.Sprintf("rate file %s is not XML: it starts with %q", f.name, firstLine(b))
		e.With("value", firstLine(b))
	}
	return e
}

// rateParseError puts the file, and the text of the line at fault, on the reader's error.
func rateParseError(f rateFile, err error) error {
	var me *model.Error
	if !errors.As(err, &me) {
		return envelope.New(envelope.ParseError, "rate file "+f.name+": "+err.Error(), ratesDownload, ratesExample).With("file", f.name)
	}
	code := envelope.Code(me.Code)
	if !code.Valid() {
		code = envelope.ParseError
	}
	where := f.name
	if me.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.name, me.Line)
	}
	e := envelope.New(code, "rate file "+where+": "+me.Message, me.Hint+" "+ratesDownload, me.Examples...).
		With("file", f.name).With("argument", "rates")
	if me.Line > 0 {
		e.With("line", me.Line)
	}
	if v := offendingValue(me.Message, f.data, me.Line); v != "" {
		e.With("value", v)
	}
	return e
}

// offendingValue is the text the reader quoted in its message (a rate, a code, a period), or
// else the text of the line at fault.
func offendingValue(msg string, data []byte, line int) string {
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
			if v, err := strconv.Unquote(q); err == nil && v != "" {
				return v
			}
		}
	}
	return lineText(data, line)
}

// lineText is the trimmed text of a 1-based line, shortened for a message.
func lineText(data []byte, line int) string {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return ""
	}
	return firstLine(bytes.TrimSpace(lines[line-1]))
}

// firstLine is the first line of b, at most 80 bytes, cut at a character boundary.
func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimSpace(b)
	if len(b) > 80 {
		b = b[:80]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "?")
}

// sameRates accepts a month given again (the same file twice, or a copy) only when every
// currency has the same rate; otherwise which file to trust is the user's choice.
func sameRates(a, b fileMonth) error {
	ra, rb := byCurrency(a.month.Rates), byCurrency(b.month.Rates)
	codes := map[string]bool{}
	for c := range ra {
		codes[c] = true
	}
	for c := range rb {
		codes[c] = true
	}
	sorted := make([]string, 0, len(codes))
	for c := range codes {
		sorted = append(sorted, c)
	}
	sort.Strings(sorted)
	for _, c := range sorted {
		x, okA := ra[c]
		y, okB := rb[c]
		if okA && okB && x.PerGBP.Equal(y.PerGBP) {
			continue
		}
		return monthConflict(a, b, c, rateText(x, okA), rateText(y, okB))
	}
	return nil
}

func monthConflict(a, b fileMonth, code, rateA, rateB string) error {
	period := a.month.Period
	return envelope.New(envelope.InvalidArgument,
		fmt.Sprintf("rate files %s and %s both give %s, with different rates: %s is %s in %s and %s in %s", a.file, b.file, period, code, rateA, a.file, rateB, b.file),
		"Give each month once: leave out the file you do not mean. When HMRC republishes a month, use its latest file.",
		"cgt report.calculate ledger.cgt --rates "+a.file).
		With("period", period).With("currency", code).With("files", []string{a.file, b.file}).
		With("value", rateB).With("argument", "rates")
}

func byCurrency(rates []fx.Rate) map[string]fx.Rate {
	m := make(map[string]fx.Rate, len(rates))
	for _, r := range rates {
		m[r.Currency] = r
	}
	return m
}

func rateText(r fx.Rate, ok bool) string {
	if !ok {
		return "missing"
	}
	return r.Text()
}
