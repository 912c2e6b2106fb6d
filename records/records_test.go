package records

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

type src struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type match struct {
	Rule  string      `json:"rule"`
	Steps []string    `json:"steps" record:"prose"`
	Cost  model.Money `json:"cost"`
}

type disposal struct {
	Date    model.Date  `json:"date" record:"timestamp"`
	Ticker  string      `json:"ticker" record:"entity"`
	Gain    model.Money `json:"gain"`
	Source  src         `json:"source" record:"source"`
	Matches []match     `json:"matches" record:"rows=match"`
}

type year struct {
	Period    string      `json:"period" record:"period"`
	NetGain   model.Money `json:"net_gain"`
	Disposals []disposal  `json:"disposals" record:"rows=disposal"`
}

type report struct {
	Years []year `json:"tax_years" record:"rows=tax_year"`
}

type rate struct {
	_        struct{} `record:"kind=fx_rate"`
	Currency string   `json:"currency" record:"entity"`
	Period   string   `json:"period" record:"period"`
	Rate     string   `json:"rate"`
}

func sample() report {
	d, _ := model.ParseDate("2024-06-20")
	return report{Years: []year{{Period: "2024/25", NetGain: model.MoneyFromString("1170.864"),
		Disposals: []disposal{{Date: d, Ticker: "AAPL", Gain: model.MoneyFromString("1170.864"), Source: src{"ledger.cgt", 2},
			Matches: []match{{Rule: "section_104", Steps: []string{"a", "b|c"}, Cost: model.MoneyFromString("5910.74")}}}}}}}
}

func TestFromNestsRowsAndInheritsStructure(t *testing.T) {
	recs := From(sample())
	if len(recs) != 3 {
		t.Fatalf("want 3 records, got %d: %+v", len(recs), recs)
	}
	m := recs[2]
	if m.Kind != "match" || m.Entity != "AAPL" || m.Period != "2024/25" || m.Timestamp != "2024-06-20" || m.Source != "ledger.cgt:2" || m.Depth != 2 {
		t.Errorf("match record did not inherit its parents: %+v", m)
	}
	if v, _ := recs[1].Get("gain"); v != "1170.86" {
		t.Errorf("gain = %q, want the 2-dp JSON form", v)
	}
}

func TestCompactLine(t *testing.T) {
	out, _ := Render("compact", From(sample()), []string{"check|me"}, Options{})
	want := "AAPL|disposal|2024/25|2024-06-20|gain=1170.86|src=ledger.cgt:2"
	if !strings.Contains(out, want+"\n") {
		t.Errorf("compact output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "steps=") || !strings.HasSuffix(out, "warning|check\\|me\n") {
		t.Errorf("prose must stay out of dense output; warning line must be escaped:\n%s", out)
	}
	named, _ := Render("compact", From(sample()), nil, Options{Fields: []string{"steps"}})
	if !strings.Contains(named, `steps=a; b\|c`) {
		t.Errorf("escaping or warning line wrong:\n%s", out)
	}
}

func TestTopLevelKind(t *testing.T) {
	out, _ := Render("compact", From(rate{Currency: "USD", Period: "2024-03", Rate: "1.2712"}), nil, Options{})
	if out != "USD|fx_rate|2024-03|rate=1.2712\n" {
		t.Errorf("got %q", out)
	}
}

func TestSchemaUsesFieldOrderAndTruncates(t *testing.T) {
	out, _ := Render("schema", From(sample()), nil, Options{Fields: []string{"rule", "gain"}, MaxRecords: 1})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "schema|entity|kind|period|timestamp|src|rule|gain" {
		t.Errorf("header %q", lines[0])
	}
	if lines[len(lines)-1] != "truncated|1 more records" {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
}

func TestMaxCharsCutsAtRecordBoundary(t *testing.T) {
	out, _ := Render("compact", From(sample()), nil, Options{MaxChars: 40})
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "truncated|") {
			return
		}
	}
	t.Errorf("no truncation line:\n%s", out)
}

func TestRecordsJSONLinesHaveUniqueStableIDs(t *testing.T) {
	recs := From(sample())
	recs = append(recs, recs[2])
	out, _ := Render("records", recs, nil, Options{})
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line is not JSON: %s", l)
		}
		id := m["id"].(string)
		if seen[id] {
			t.Errorf("duplicate id %s", id)
		}
		seen[id] = true
	}
	again, _ := Render("records", recs, nil, Options{})
	if again != out {
		t.Error("ids differ between runs")
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", `a|b`, "x\ny", `back\slash`, `\|`, "a=b", "\r\n"} {
		if got := Unescape(EscapeKey(s)); got != s {
			t.Errorf("EscapeKey round trip of %q gave %q", s, got)
		}
		if got := Unescape(Escape(s)); got != s {
			t.Errorf("Escape round trip of %q gave %q", s, got)
		}
	}
}

// TestAppendEscapedIsEscape: the dense writers' escaping, byte by byte, is Escape's.
func TestAppendEscapedIsEscape(t *testing.T) {
	var every []byte
	for c := range 256 {
		s := string([]byte{'a', byte(c), 'b'})
		if got := string(appendEscaped([]byte("x"), s)); got != "x"+Escape(s) {
			t.Errorf("byte %#x: appendEscaped gave %q, Escape %q", c, got, Escape(s))
		}
		every = append(every, byte(c))
	}
	if got := string(appendEscaped(nil, string(every))); got != Escape(string(every)) {
		t.Errorf("every byte at once: %q", got)
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("a|b\\c\nd=e")
	f.Fuzz(func(t *testing.T, s string) {
		if a := string(appendEscaped(nil, s)); a != Escape(s) {
			t.Fatalf("appendEscaped(%q) = %q, Escape %q", s, a, Escape(s))
		}
		e := EscapeKey(s)
		if strings.ContainsAny(e, "\n\r") {
			t.Fatalf("escaped value has a raw line break: %q", e)
		}
		if Unescape(e) != s {
			t.Fatalf("round trip of %q failed", s)
		}
	})
}

func TestPounds(t *testing.T) {
	for in, want := range map[string]string{"1234567.50": "£1,234,567.50", "-30": "-£30.00", "0.5": "£0.50", "999": "£999.00"} {
		if got := Pounds(in); got != want {
			t.Errorf("Pounds(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestTextReport(t *testing.T) {
	out := Text(From(sample()), []string{"heads up"})
	for _, want := range []string{"TAX YEAR  2024/25", "    DISPOSAL  AAPL  2024/25  2024-06-20  (ledger.cgt:2)", "£1,170.86", "warning: heads up"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

func TestFieldNamesFromType(t *testing.T) {
	got := strings.Join(FieldNames(reflect.TypeOf(report{})), ",")
	if got != "net_gain,gain,rule,steps,cost" {
		t.Errorf("FieldNames = %s", got)
	}
	if got := strings.Join(FieldNames(reflect.TypeOf(rate{})), ","); got != "rate" {
		t.Errorf("FieldNames(rate) = %s", got)
	}
}

func TestFieldsKeepOnlyRecordsThatHaveThem(t *testing.T) {
	out, _ := Render("compact", From(sample()), nil, Options{Fields: []string{"rule"}})
	if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "AAPL|match|") {
		t.Errorf("want only the match record:\n%s", out)
	}
}

// Of yields From's records in order and stops when asked; Write and WriteText give the same
// text as Render and Text.
func TestOfAndWriteMatchFromAndRender(t *testing.T) {
	all := From(sample())
	var got []Record
	for r := range Of(sample()) {
		got = append(got, r)
	}
	if !reflect.DeepEqual(got, all) {
		t.Fatalf("Of yields %+v, From %+v", got, all)
	}
	n := 0
	for range Of(sample()) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("Of kept yielding after the consumer stopped")
	}
	for _, format := range Formats {
		for _, opt := range []Options{{}, {MaxRecords: 1}, {MaxChars: 60}, {Fields: []string{"gain"}}} {
			want, _ := Render(format, all, []string{"w"}, opt)
			var b strings.Builder
			if err := Write(&b, format, Of(sample()), []string{"w"}, opt); err != nil || b.String() != want {
				t.Errorf("%s %+v: Write gave %q (%v), Render %q", format, opt, b.String(), err, want)
			}
		}
	}
	var b strings.Builder
	if err := WriteText(&b, Of(sample()), nil); err != nil || b.String() != Text(all, nil) {
		t.Errorf("WriteText differs from Text")
	}
	if err := Write(&b, "yaml", Of(sample()), nil, Options{}); err == nil {
		t.Error("an unknown format must be an error")
	}
}

// percent is a scalar of a package the renderers do not know; it names its own field type.
type percent string

func (percent) RecordType() string { return "percentage" }

func TestFieldTypesComeFromTheValuesNotTheirTypeNames(t *testing.T) {
	fs := appendField(nil, "rate", reflect.ValueOf(percent("0.24")), false)
	if len(fs) != 1 || fs[0].Type != "percentage" {
		t.Errorf("a Typed value: got %+v, want one field of type percentage", fs)
	}
	fs = appendField(nil, "name", reflect.ValueOf("x"), false)
	if len(fs) != 1 || fs[0].Type != "text" {
		t.Errorf("a string: got %+v, want one field of type text", fs)
	}
}

func TestCountIsTheNumberOfRecords(t *testing.T) {
	for _, v := range []any{sample(), &struct{}{}, rate{Currency: "USD", Period: "2024-03", Rate: "1.2712"}, nil, 3} {
		if got, want := Count(v), len(From(v)); got != want {
			t.Errorf("%T: Count %d, From gives %d records", v, got, want)
		}
	}
	if Count(sample()) < 3 {
		t.Errorf("sample has %d records; the test needs nested rows", Count(sample()))
	}
}
