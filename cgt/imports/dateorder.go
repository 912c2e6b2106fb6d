package imports

import (
	"slices"
	"strings"

	"github.com/cgt-tools/cgt/cgt/model"
)

// An Interactive Brokers Flex Query writes its dates in the format its owner chose:
// yyyyMMdd, yyyy-MM-dd, MM/dd/yyyy, MM/dd/yy, dd/MM/yyyy, dd/MM/yy or dd-MMM-yy. The file
// does not say which, and 03/04/2024 reads both ways. The order of a file's slash dates is
// therefore settled from all of them at once: a first number above 12 can only be a day
// (dd/MM), a second number above 12 only a day too (MM/dd). A file whose every slash date
// reads both ways is read month first, IBKR's US form and its default among the slash
// forms, with a warning; a file with evidence both ways is read month first, and its
// day-first dates then fail as not dates, row by row.
//
// The Activity Statement and the Transaction History are written with yyyy-MM-dd dates
// only. Slash dates in them come from a spreadsheet the file was opened and saved in, in
// the order of that spreadsheet's locale, so they are settled the same way; when nothing
// settles them they are read day first, a UK spreadsheet's order (cgt's users are UK
// taxpayers), with a warning that says how to get a file that reads one way only.

// Trading 212, Freetrade and Revolut write their dates as yyyy-MM-dd, with a time. A file
// opened in a spreadsheet and saved again comes back with the spreadsheet's dates instead:
// 15/01/2024 10:30 where it is set to UK dates, 1/15/2024 10:30 (or 10:30:00 AM) where it
// is set to US ones. Those are read too (isoDate), their order settled from the whole date
// column the first time one is met, and read day first, with a warning, when no date in
// the column settles it, as a statement of IBKR's is.

// slashOrder is what a file's slash dates say about their order.
type slashOrder struct {
	dayFirst bool   // some date can only be dd/MM, and none only MM/dd
	unsure   string // when no date settles it: one that reads both ways, for the warning
}

// slashOrderOf reads every date written d/d/yy or d/d/yyyy (one or two digits for the day
// and month) in src.
func slashOrderOf(src []byte) slashOrder {
	var dayFirst, monthFirst bool
	unsure := ""
	for i := 0; i < len(src); i++ {
		if !isDigit(src[i]) || i > 0 && (isDigit(src[i-1]) || src[i-1] == '/') {
			continue
		}
		a, b, end, ok := slashDate(src, i)
		if !ok {
			continue
		}
		switch {
		case a > 12 && a <= 31 && b >= 1 && b <= 12:
			dayFirst = true
		case b > 12 && b <= 31 && a >= 1 && a <= 12:
			monthFirst = true
		case a != b && a >= 1 && b >= 1 && a <= 12 && b <= 12 && unsure == "":
			unsure = string(src[i:end])
		}
		i = end - 1
	}
	switch {
	case dayFirst && !monthFirst:
		return slashOrder{dayFirst: true}
	case !dayFirst && !monthFirst:
		return slashOrder{unsure: unsure}
	}
	return slashOrder{}
}

// slashDate reads d{1,2}/d{1,2}/(dd|dddd) at src[i], not followed by a digit or a slash.
func slashDate(src []byte, i int) (a, b, end int, ok bool) {
	a, i, ok = digitsAt(src, i, 1, 2)
	if !ok || i >= len(src) || src[i] != '/' {
		return 0, 0, 0, false
	}
	b, i, ok = digitsAt(src, i+1, 1, 2)
	if !ok || i >= len(src) || src[i] != '/' {
		return 0, 0, 0, false
	}
	start := i + 1
	_, i, ok = digitsAt(src, start, 2, 4)
	if !ok || i-start == 3 || i < len(src) && src[i] == '/' {
		return 0, 0, 0, false
	}
	return a, b, i, true
}

// digitsAt reads from min to max digits at src[i]; more digits than max is no match.
func digitsAt(src []byte, i, min, max int) (n, end int, ok bool) {
	j := i
	for j < len(src) && isDigit(src[j]) {
		if j-i == max {
			return 0, 0, false
		}
		n = n*10 + int(src[j]-'0')
		j++
	}
	return n, j, j-i >= min
}

// slashReading is how a reader takes slash dates that nothing in the file settles, and
// what its warning says of them.
type slashReading struct {
	dayFirst bool
	why      string // why that order: "as ... writes them"
	fix      string // what makes every such date certain
}

var (
	// flexSlashes: IBKR's own slash format is month first.
	flexSlashes = slashReading{why: "as IBKR's US format writes them",
		fix: "If the Flex Query's date format is dd/MM/yyyy or dd/MM/yy, every such date is wrong: set it to yyyyMMdd or yyyy-MM-dd, which read one way only, and download the file again"}
	// statementSlashes: IBKR writes a statement's dates as yyyy-MM-dd; a spreadsheet
	// rewrote these.
	statementSlashes = spreadsheetSlashes("Interactive Brokers", "this statement's", "statement")
)

// spreadsheetSlashes is how the slash dates of a file the broker writes as yyyy-MM-dd are
// read when nothing settles them: a spreadsheet set to UK dates wrote them. whose dates
// ("these", "this statement's") and what the file is ("export", "statement") word the warning.
func spreadsheetSlashes(broker, whose, file string) slashReading {
	return slashReading{dayFirst: true, why: "as a spreadsheet set to UK dates writes them; " + broker + " writes " + whose + " dates as yyyy-MM-dd",
		fix: "If the file was saved from a spreadsheet set to US dates (MM/dd/yyyy), every such date is wrong: download the " + file + " again and import it as it comes, without opening it in a spreadsheet"}
}

// settleSlashOrder settles the order of a file's slash dates before its rows are read, and
// warns when the file leaves it open (then reading them as r says).
func (b *batch) settleSlashOrder(src []byte, r slashReading) {
	o := slashOrderOf(src)
	b.dayFirst = o.dayFirst
	if o.unsure != "" {
		b.dayFirst = r.dayFirst
		order := "month first (MM/dd, "
		if r.dayFirst {
			order = "day first (dd/MM, "
		}
		b.warnf("%s: dates such as %s are read %s%s): no date in the file has a day after the 12th to tell which way round they are. %s",
			b.imp.Report.File, o.unsure, order, r.why, r.fix)
	}
}

// statementDates is the text of a statement's date cells, one a line, for settleSlashOrder:
// the cells of every column whose header names a date ("Date", "Date/Time", "Trade Date",
// "Report Date", "Settle Date"), by section. Free text says nothing of the order the dates
// are written in (a bond's description, "US TREASURY 4.5% 11/15/2033", is month first
// whatever the spreadsheet did), so it is left out.
func statementDates(lines []ibkrLine) []byte {
	var out []byte
	var heads []ibkrLine // the current header of each section met
	for _, l := range lines {
		k := slices.IndexFunc(heads, func(h ibkrLine) bool { return h.section == l.section })
		switch {
		case strings.EqualFold(l.kind, "Header") && k < 0:
			heads = append(heads, l)
		case strings.EqualFold(l.kind, "Header"):
			heads[k] = l
		case strings.EqualFold(l.kind, "Data") && k >= 0:
			for i, name := range heads[k].fields {
				if i < len(l.fields) && isDateColumn(name) {
					out = append(append(out, l.fields[i]...), '\n')
				}
			}
		}
	}
	return out
}

// isDateColumn reports whether a statement's column header names a date.
func isDateColumn(name string) bool {
	n := strings.TrimSpace(name)
	return strings.EqualFold(n, "date") || strings.EqualFold(n, "date/time") || len(n) > 5 && strings.EqualFold(n[len(n)-5:], " date")
}

// ibkrDates are the layouts of a whole date or date and time in an IBKR file, its slash
// dates the way round the file writes them.
func (b *batch) ibkrDates() []string {
	if b.dayFirst {
		return ibkrDatesDayFirst
	}
	return ibkrDates
}

// ibkrDayLayouts are the layouts of the date part of a Flex Query date and time.
func (b *batch) ibkrDayLayouts() []string {
	if b.dayFirst {
		return ibkrDayLayoutsDayFirst
	}
	return ibkrDayLayouts
}

var (
	ibkrDatesDayFirst      = dayFirstLayouts(ibkrDates)
	ibkrDayLayoutsDayFirst = dayFirstLayouts(ibkrDayLayouts)
)

// dayFirstLayouts is layouts with each month-first slash date (01/02, or 1/2 with one digit
// or two) written day first.
func dayFirstLayouts(layouts []string) []string {
	out := make([]string, len(layouts))
	for i, l := range layouts {
		switch {
		case strings.HasPrefix(l, "01/02/"):
			l = "02/01/" + l[6:]
		case strings.HasPrefix(l, "1/2/"):
			l = "2/1/" + l[4:]
		}
		out[i] = l
	}
	return out
}

// spreadsheetDates are the layouts a spreadsheet writes a date, or a date and time, in when
// it saves a file, month first; spreadsheetDatesDayFirst the same day first.
var (
	spreadsheetDates = []string{"1/2/2006 15:04:05", "1/2/2006 15:04", "1/2/2006 3:04:05 PM", "1/2/2006 3:04 PM", "1/2/2006",
		"1/2/06 15:04:05", "1/2/06 15:04", "1/2/06 3:04:05 PM", "1/2/06 3:04 PM", "1/2/06"}
	spreadsheetDatesDayFirst = dayFirstLayouts(spreadsheetDates)
)

// isoDate reads column c, a date the broker writes in one of layouts (yyyy-MM-dd, with a
// time), or, when the file was saved from a spreadsheet, a slash date in that
// spreadsheet's order, settled from the whole column the first time one is met.
func (t *table) isoDate(c int, layouts []string, broker string) model.Date {
	s := t.str(c)
	if d, ok := parseDate(s, layouts...); ok {
		return d
	}
	if strings.Contains(s, "/") {
		if !t.b.settled {
			t.b.settled = true
			t.b.settleSlashOrder(t.column(c), spreadsheetSlashes(broker, "these", "export"))
		}
		slashes := spreadsheetDates
		if t.b.dayFirst {
			slashes = spreadsheetDatesDayFirst
		}
		if d, ok := parseDate(s, slashes...); ok {
			return d
		}
	}
	return t.date(c, layouts...) // not a date: the error names the broker's own layouts
}

// column is the text of column c of every record after the header, one a line.
func (t *table) column(c int) []byte {
	var out []byte
	r := newCSVReader(t.body)
	for {
		rec, err := r.Read()
		if err != nil { // the end, or an error the rows' own reading reports
			return out
		}
		if c < len(rec) {
			out = append(append(out, rec[c]...), '\n')
		}
	}
}
