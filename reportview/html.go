package reportview

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
	"github.com/cgt-tools/cgt/records"
)

// HTML writes the report as one self-contained page: inline CSS and SVG, no script and no
// network (a Content-Security-Policy forbids every load), readable on a phone and printable to
// PDF from the browser. Everything that comes from the user's files — file names, tickers,
// security names, warnings — goes through esc: an export is someone else's text.
func HTML(w io.Writer, rep *engine.Report, ledger string, warnings []string) error {
	return writePage(w, newView(rep, ledger, warnings))
}

// view is what the page template reads.
type view struct {
	Title    string
	Years    []yearView
	Chart    string // SVG markup built here, its text escaped
	Pools    []poolView
	Holdings []engine.Holding
	Names    map[string]string // the broker's name of each ticker made from it
	SetAside []setAsideView
	ERI      []engine.ExcessIncome
	Warnings []string
	// LossesBroughtForward are the losses given as brought into the ledger's first year.
	LossesBroughtForward model.Money
}

type yearView struct {
	*engine.TaxYear
	Rows      []summaryRow
	Boxes     map[string]string
	Disposals []disposalView
	unread    bool // rows of the files that could change a figure were not read
}

type disposalView struct {
	*engine.Disposal
	Rules string
	FX    []string
	Where string
}

type poolView struct {
	_ model.NotComparable

	Ticker string
	Chart  string // SVG markup built here, its text escaped
}

type setAsideView struct {
	Title     string
	Disposals []engine.Disposal
}

func newView(rep *engine.Report, ledger string, warnings []string) view {
	v := view{Title: "Capital gains report", Holdings: rep.Holdings, Names: rep.SecurityNames, Warnings: warnings, LossesBroughtForward: rep.LossesBroughtForward, ERI: rep.ExcessIncome}
	if ledger != "" {
		v.Title += ": " + ledger
	}
	for i := range rep.TaxYears {
		ty := &rep.TaxYears[i]
		if !hasActivity(ty) && len(rep.TaxYears) > 1 {
			continue
		}
		y := newYearView(ty)
		y.unread = notRead(warnings)
		v.Years = append(v.Years, y)
	}
	v.Chart = yearChart(v.Years)
	for _, p := range rep.Pools {
		if len(p.Events) > 1 {
			v.Pools = append(v.Pools, poolView{Ticker: p.Ticker, Chart: poolChart(p)})
		}
	}
	for _, s := range []setAsideView{
		{"Exempt (gilts and qualifying corporate bonds, TCGA92 s115): not counted", rep.ExemptDisposals},
		{"Offshore income gains (non-reporting funds): income, on the SA106", rep.OffshoreIncomeGains},
		{"No gain, no loss (transfers to a spouse or civil partner, TCGA92 s58)", rep.NoGainNoLoss},
	} {
		if len(s.Disposals) > 0 {
			v.SetAside = append(v.SetAside, s)
		}
	}
	return v
}

func newYearView(ty *engine.TaxYear) yearView {
	y := yearView{TaxYear: ty, Boxes: map[string]string{}}
	boxes := boxesByLabel(ty.SA108.Boxes)
	for _, r := range summaryRows(ty) {
		bx := boxes[r.box]
		if bx.Box != "" {
			y.Boxes[r.Label] = "box " + bx.Box + " · " + bx.Value
		}
		y.Rows = append(y.Rows, r)
	}
	for i := range ty.Disposals {
		d := &ty.Disposals[i]
		y.Disposals = append(y.Disposals, disposalView{Disposal: d, Rules: rules(d), FX: conversions(d), Where: where(d.Source)})
	}
	return y
}

// chart geometry, in SVG user units.
const (
	chartW, chartH = 640.0, 220.0
	padL, padB     = 70.0, 30.0
)

// yearChart is a bar chart of each year's gains (up) and losses (down), with the net gain
// marked.
func yearChart(years []yearView) string {
	if len(years) == 0 {
		return ""
	}
	maxV := 1.0
	for _, y := range years {
		maxV = max(maxV, money(y.Gains), money(y.Losses))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="Gains and losses per tax year">`, chartW, chartH)
	mid := (chartH - padB) / 2
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, padL, mid, chartW, mid)
	slot := (chartW - padL) / float64(len(years))
	bw := min(slot*0.35, 40)
	scale := (mid - 10) / maxV
	for i, y := range years {
		x := padL + slot*float64(i) + slot/2
		g, l := money(y.Gains)*scale, money(y.Losses)*scale
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="gain"><title>%s gains %s</title></rect>`,
			x-bw, mid-g, bw, g, esc(y.Period), records.Pounds(y.Gains.String()))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="loss"><title>%s losses %s</title></rect>`,
			x, mid, bw, l, esc(y.Period), records.Pounds(y.Losses.String()))
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" class="label">%s</text>`, x, chartH-8, esc(y.Period))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="value">%s</text>`, x, max(mid-g-4, 12), esc(records.Pounds(y.NetGain.String())))
	}
	fmt.Fprintf(&b, `<text x="4" y="14" class="legend"><tspan class="gain-t">■ gains</tspan> <tspan class="loss-t">■ losses</tspan>, net gain above each year</text>`)
	b.WriteString(`</svg>`)
	return b.String()
}

// maxChartPoints bounds the steps a pool chart draws: a chart 640 units wide shows no more,
// and a pool of a long ledger has thousands of events.
const maxChartPoints = 600

// poolChart draws a pool's quantity and cost after each event, as two step lines on their own
// scales. Events closer together than the chart can show are drawn as the last of them.
func poolChart(p engine.PoolHistory) string {
	ev := p.Events
	first, last := float64(ev[0].Date), float64(ev[len(ev)-1].Date)
	span := max(last-first, 1)
	type point struct {
		x, q, c float64
		slot    int
	}
	pts := make([]point, 0, min(len(ev), maxChartPoints+2))
	maxQ, maxC := 1.0, 1.0
	width := chartW - padL - 20
	for _, e := range ev {
		f := (float64(e.Date) - first) / span
		pt := point{padL + f*width, dec(e.Quantity), money(e.Cost), int(f * maxChartPoints)}
		maxQ, maxC = max(maxQ, pt.q), max(maxC, pt.c)
		if n := len(pts); n > 1 && pts[n-1].slot == pt.slot {
			pts[n-1] = pt // in the same slot as the point before: keep the latest state
			continue
		}
		pts = append(pts, pt)
	}
	y := func(v, top float64) float64 { return chartH - padB - v/top*(chartH-padB-20) }
	q := make([]byte, 0, 32*len(pts))
	c := make([]byte, 0, 32*len(pts))
	for i, pt := range pts {
		cmd := byte('L')
		if i == 0 {
			cmd = 'M'
		} else {
			prev := pts[i-1]
			q = appendPoint(q, 'L', pt.x, y(prev.q, maxQ))
			c = appendPoint(c, 'L', pt.x, y(prev.c, maxC))
		}
		q = appendPoint(q, cmd, pt.x, y(pt.q, maxQ))
		c = appendPoint(c, cmd, pt.x, y(pt.c, maxC))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s pool: shares and cost over time">`,
		chartW, chartH, esc(p.Ticker))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, padL, chartH-padB, chartW-20, chartH-padB)
	fmt.Fprintf(&b, `<path d="%s" class="qty"/><path d="%s" class="cost"/>`, q, c)
	fmt.Fprintf(&b, `<text x="%g" y="%g" class="label">%s</text><text x="%g" y="%g" class="label">%s</text>`,
		padL, chartH-8, ev[0].Date, chartW-20, chartH-8, ev[len(ev)-1].Date)
	fmt.Fprintf(&b, `<text x="4" y="14" class="legend"><tspan class="qty-t">— shares (up to %s)</tspan> <tspan class="cost-t">— cost (up to %s)</tspan></text>`,
		thousands(strconv.FormatFloat(maxQ, 'f', 0, 64)), "£"+thousands(strconv.FormatFloat(maxC, 'f', 2, 64)))
	b.WriteString(`</svg>`)
	return b.String()
}

// thousands puts commas between the thousands of a plain number's whole part: 12345.6 is
// 12,345.6.
func thousands(s string) string {
	whole, frac, dot := strings.Cut(s, ".")
	var b strings.Builder
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 && whole[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// appendPoint writes " L12.3 45.6" (a path command and a point, one decimal each).
func appendPoint(b []byte, cmd byte, x, y float64) []byte {
	b = append(b, ' ', cmd)
	b = strconv.AppendFloat(b, x, 'f', 1, 64)
	b = append(b, ' ')
	return strconv.AppendFloat(b, y, 'f', 1, 64)
}

// money and dec give a figure as a float64 for drawing only; no figure the report states is
// computed this way.
func money(m model.Money) float64 {
	v, _ := strconv.ParseFloat(m.String(), 64)
	return v
}

func dec(d model.Decimal) float64 {
	v, _ := strconv.ParseFloat(d.String(), 64)
	return v
}

// esc escapes text for HTML content and attribute values, as html.EscapeString does. Most of
// what the report writes (dates, figures) has nothing to escape and is returned as it is.
// (The html package is not used: its initialisation keeps its table of 2,231 named entities,
// for unescaping, in every program that imports it — the browser module too.)
func esc(s string) string {
	if !strings.ContainsAny(s, "<>&'\"") {
		return s
	}
	return htmlEscaper.Replace(s)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;")

// pounds writes an amount as £1,234.56 (-£54.90 for a negative one), as records.Pounds does,
// without parsing it again: a Money's text is already fixed to pence.
func pounds(m model.Money) string {
	s := m.String()
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	whole, frac, ok := strings.Cut(digits, ".")
	if !ok || len(frac) != 2 || whole == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return esc(records.Pounds(s))
	}
	b := make([]byte, 0, len(s)+len(whole)/3+3)
	if neg {
		b = append(b, '-')
	}
	b = append(b, "£"...)
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, whole[i])
	}
	b = append(b, '.')
	b = append(b, frac...)
	return string(b)
}

// pageCSS styles the page on screen and in print.
const pageCSS = `:root{--ink:#1b1f24;--muted:#5b6470;--line:#d7dce2;--gain:#1f7a4d;--loss:#b3261e;--accent:#24527a}
*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;max-width:980px;padding:16px}
h1{font-size:1.5em;margin:.2em 0;overflow-wrap:anywhere}h2{font-size:1.25em;margin:1.6em 0 .4em;border-bottom:2px solid var(--accent);padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .3em}
p.note{color:var(--muted);margin:.2em 0 1em}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;margin:.4em 0}th,td{padding:.3em .5em;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.box{color:var(--accent);white-space:nowrap;font-size:.9em}
.neg{color:var(--loss)}.tax{font-weight:600}
details{margin:.2em 0}summary{cursor:pointer;color:var(--accent)}pre{white-space:pre-wrap;font-size:.85em;background:#f5f7f9;padding:.5em;margin:.3em 0}
.chart{width:100%;height:auto;max-width:640px;display:block}.axis{stroke:#8a939e;stroke-width:1}.gain{fill:var(--gain)}.loss{fill:var(--loss)}
.label,.value,.legend{font-size:11px;fill:var(--muted);text-anchor:middle}.legend{text-anchor:start}.gain-t{fill:var(--gain)}.loss-t{fill:var(--loss)}
.qty{fill:none;stroke:var(--accent);stroke-width:2}.cost{fill:none;stroke:#c77c0e;stroke-width:2;stroke-dasharray:5 3}.qty-t{fill:var(--accent)}.cost-t{fill:#c77c0e}
.warn{background:#fff6e0;border-left:4px solid #8a5a00;padding:.2em .8em .2em 1.8em}.warn li{margin:.3em 0}
.assume{background:#f5f7f9;border-left:4px solid var(--accent);padding:.2em .8em .2em 1.8em}.assume li{margin:.35em 0}blockquote{margin:.3em 0 .3em 1em;padding:.3em .6em;border-left:3px solid var(--line);background:#fff}
h2,h3,h4{break-after:avoid;page-break-after:avoid}tr,pre,.assume li,.warn li,svg,table.summary{break-inside:avoid;page-break-inside:avoid}thead{display:table-header-group}
@media print{body{max-width:none;font-size:10.5pt;padding:0}a{color:inherit}.scroll{overflow:visible}summary{list-style:none;color:var(--ink)}summary::-webkit-details-marker{display:none}
details::details-content{content-visibility:visible;display:block;height:auto}details>*{display:block}pre{background:none;border-left:2px solid var(--line)}}
@page{margin:15mm 12mm}
`

// writePage writes the whole document. The page is written by code rather than a template
// package, so that the command line, which links this package, starts without initialising
// one; every value from the report passes through esc or pounds.
func writePage(w io.Writer, v view) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	ws := func(parts ...string) {
		for _, s := range parts {
			b.WriteString(s)
		}
	}
	p("<!DOCTYPE html>\n<html lang=\"en-GB\">\n<head>\n<meta charset=\"utf-8\">\n")
	p("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
	p("<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>%s</h1>\n", esc(v.Title), pageCSS, esc(v.Title))
	p("<p class=\"note\">Amounts in pounds sterling. \"box N\" is the box of that year's SA108 Capital gains summary, with the figure to enter in whole pounds.</p>\n")
	if len(v.Warnings) > 0 {
		p("<h2>Check these first</h2>\n<ul class=\"warn\">")
		for _, w := range v.Warnings {
			p("<li>%s</li>", esc(w))
		}
		p("</ul>\n")
	}
	writeAssumptions(p, v)
	if v.Chart != "" {
		p("<h2>Gains and losses by tax year</h2>%s\n", v.Chart)
	}
	for _, y := range v.Years {
		writeYearHTML(p, ws, y)
	}
	if len(v.Holdings) > 0 {
		p("<h2>Holdings at the end of the ledger</h2>\n<div class=\"scroll\"><table><tr><th>Security</th><th class=\"n\">Quantity</th><th class=\"n\">Cost</th><th class=\"n\">Average cost</th></tr>\n")
		for _, h := range v.Holdings {
			p("<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">£%s</td></tr>\n", esc(h.Ticker), esc(h.Quantity.String()), pounds(h.Cost), esc(h.AverageCost.String()))
		}
		p("</table></div>\n")
	}
	if len(v.Names) > 0 {
		tickers := make([]string, 0, len(v.Names))
		for tk := range v.Names {
			tickers = append(tickers, tk)
		}
		order.Ascending(tickers)
		p("<p class=\"note\">Tickers made from the broker's names of securities:</p>\n<ul>")
		for _, tk := range tickers {
			p("<li><code>%s</code>: %s</li>", esc(tk), esc(v.Names[tk]))
		}
		p("</ul>\n")
	}
	if len(v.Pools) > 0 {
		p("<h2>Section 104 pools over time</h2>\n")
		for _, pl := range v.Pools {
			p("<h3>%s</h3>%s\n", esc(pl.Ticker), pl.Chart)
		}
	}
	for _, s := range v.SetAside {
		p("<h2>%s</h2><div class=\"scroll\"><table>\n", esc(s.Title))
		for i := range s.Disposals {
			d := &s.Disposals[i]
			p("<tr><td>%s</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s</td></tr>\n",
				d.Date, esc(d.Ticker), esc(d.Quantity.String()), pounds(d.Proceeds), pounds(d.AllowableCost), pounds(d.Gain), esc(where(d.Source)))
		}
		p("</table></div>\n")
	}
	writeExcessIncomeHTML(p, v.ERI)
	p("</body>\n</html>\n")
	return b.Flush()
}

// writeAssumptions states, before any figure, what the figures rest on: the taxable income and
// basic rate band used for the tax (or that none was given), the losses brought forward, and
// for 2024/25 the box 51 adjustment with the gains before and from 30 October 2024 that
// HMRC's adjustment calculator asks for, and words for the return's box 54.
func writeAssumptions(p func(string, ...any), v view) {
	p("<h2>What this report assumes</h2>\n<ul class=\"assume\">\n")
	if v.LossesBroughtForward.IsZero() {
		p("<li>No losses brought forward from before the ledger's first tax year (give <code>losses_brought_forward</code> if you have some).</li>\n")
	} else {
		p("<li>Losses of %s brought forward from before the ledger's first tax year, as given.</li>\n", pounds(v.LossesBroughtForward))
	}
	for _, y := range v.Years {
		if y.DisposalCount == 0 {
			continue
		}
		p("<li><strong>%s</strong>: ", esc(y.Period))
		if t := y.Tax; t != nil {
			p("taxable income %s; basic rate band %s (the basic rate limit %s", pounds(t.TaxableIncome), pounds(t.BasicRateBand), pounds(t.BasicRateLimit))
			if !t.BasicBandExtension.IsZero() {
				p(" extended by %s of Gift Aid and pension contributions", pounds(t.BasicBandExtension))
			}
			if t.BasicRateBandUnused.IsZero() {
				p("), all of it used by the income, so the gains are taxed at the higher rate.")
			} else {
				p("), of which %s is unused: gains up to that are taxed at the lower rate, the rest at the higher.", pounds(t.BasicRateBandUnused))
			}
		} else {
			p("no taxable income given, so the tax due is not worked out")
			if y.Period == rateChangeYear {
				p(", nor box 51")
			}
			p(".")
		}
		if !y.LossesBroughtForward.IsZero() {
			p(" Losses brought forward into the year %s, of which %s used.", pounds(y.LossesBroughtForward), pounds(y.LossesUsed))
		}
		p("</li>\n")
		if y.Period == rateChangeYear {
			writeBox51(p, y)
		}
	}
	p("</ul>\n")
}

// writeBox51 is the 2024/25 adjustment: the gains before and from 30 October 2024, the
// figure, and what to write in the additional information box.
func writeBox51(p func(string, ...any), y yearView) {
	if len(y.RatePeriods) != 2 {
		return
	}
	before, after := y.RatePeriods[0], y.RatePeriods[1]
	p("<li><strong>Box 51, adjustment to Capital Gains Tax</strong> (the rates rose on 30 October 2024, after the 2024/25 return was printed): gains before 30 October 2024 %s and losses %s (%s to %s); gains from 30 October 2024 %s and losses %s (%s to %s). ",
		pounds(before.Gains), pounds(before.Losses), before.From, before.To, pounds(after.Gains), pounds(after.Losses), after.From, after.To)
	adj := y.SA108.Adjustment
	if adj == nil {
		p("The adjustment depends on your income: give <code>taxable_income</code> to have it.</li>\n")
		return
	}
	p("The adjustment is <strong>%s</strong>: the tax at 18%% and 24%% on the gains from 30 October 2024 less the tax the return's own calculation charges on them at 10%% and 20%%. Put it in box 51, and in box 54 (any other information):", pounds(*adj))
	words := fmt.Sprintf("Box 51: adjustment of %s for the Capital Gains Tax rates that changed on 30 October 2024, worked out as HMRC's calculator for the 2024 to 2025 tax year does. Gains before 30 October 2024 %s, losses %s; gains on or after 30 October 2024 %s, losses %s",
		records.Pounds(adj.String()), records.Pounds(before.Gains.String()), records.Pounds(before.Losses.String()), records.Pounds(after.Gains.String()), records.Pounds(after.Losses.String()))
	if !y.LossesUsed.IsZero() {
		words += "; losses brought forward used " + records.Pounds(y.LossesUsed.String())
	}
	if t := y.Tax; t != nil {
		words += "; taxable income " + records.Pounds(t.TaxableIncome.String())
		if !t.BasicBandExtension.IsZero() {
			words += ", basic rate band extended by " + records.Pounds(t.BasicBandExtension.String())
		}
	}
	p("<blockquote>%s.</blockquote></li>\n", esc(words))
}

func writeYearHTML(p func(string, ...any), ws func(...string), y yearView) {
	p("<h2>Tax year %s</h2>\n<p class=\"note\">%s to %s</p>\n", esc(y.Period), y.StartDate, y.EndDate)
	if y.DisposalCount == 0 && y.unread {
		p("<p><strong>No disposals read, but rows of the files were not read (see &ldquo;Check these first&rdquo;): check them before entering nothing.</strong></p>\n")
	} else if y.DisposalCount == 0 {
		p("<p>No disposals: nothing to enter on the SA108 for this year.</p>\n")
	} else {
		p("<div class=\"scroll\"><table class=\"summary\">\n")
		for _, r := range y.Rows {
			p("<tr><th>%s</th><td class=\"n\">%s</td><td class=\"box\">%s</td></tr>\n", esc(r.Label), esc(r.Value), esc(y.Boxes[r.Label]))
		}
		if t := y.Tax; t != nil {
			p("<tr class=\"tax\"><th>Tax due</th><td class=\"n\">%s</td><td></td></tr>\n", pounds(t.Total))
			for _, c := range t.Charges {
				p("<tr><td>%s on %s (%s to %s)</td><td class=\"n\">%s</td><td></td></tr>\n", esc(percent(c.Rate)), pounds(c.Gain), c.From, c.To, pounds(c.Tax))
			}
		} else {
			p("<tr><th>Tax due</th><td colspan=\"2\">give taxable_income to work it out</td></tr>\n")
		}
		if adj := y.SA108.Adjustment; adj != nil && y.Period == rateChangeYear {
			p("<tr><th>Adjustment to CGT</th><td class=\"n\">%s</td><td class=\"box\">box 51</td></tr>\n", pounds(*adj))
		}
		p("</table></div>\n<h3>Disposals</h3>\n<div class=\"scroll\"><table>\n")
		p("<thead><tr><th>Date</th><th>Security</th><th class=\"n\">Quantity</th><th class=\"n\">Proceeds</th><th class=\"n\">Cost</th><th class=\"n\">Gain</th><th>Rule</th></tr></thead>\n")
		for _, d := range y.Disposals {
			// The rows are written piece by piece rather than through fmt: a long ledger has
			// tens of thousands of them.
			gainClass := `<td class="n">`
			if d.Gain.Sign() < 0 {
				gainClass = `<td class="n neg">`
			}
			ws("<tr><td>", d.Date.String(), "</td><td>", esc(d.Ticker), `</td><td class="n">`, esc(d.Quantity.String()),
				`</td><td class="n">`, pounds(d.Proceeds), `</td><td class="n">`, pounds(d.AllowableCost), "</td>", gainClass,
				pounds(d.Gain), "</td><td>", esc(d.Rules), "</td></tr>\n",
				`<tr><td colspan="7"><details><summary>How it was worked out (`, esc(d.Where), ")</summary>\n")
			for _, fx := range d.FX {
				ws("<p>", esc(fx), "</p>\n")
			}
			for i := range d.Matches {
				m := &d.Matches[i]
				bought := ""
				if m.AcquisitionDate != nil {
					bought = " bought " + m.AcquisitionDate.String()
				}
				ws("<p><strong>", esc(m.Rule), "</strong> (", esc(m.Reference), "): ", esc(m.Quantity.String()), " shares", bought,
					", gain ", pounds(m.Gain), "</p>\n<pre>")
				for _, line := range m.Explain() {
					ws(esc(line), "\n")
				}
				ws("</pre>\n")
			}
			ws("</details></td></tr>\n")
		}
		p("</table></div>\n")
	}
	dv := y.Dividends
	if dv.Count > 0 || !dv.Accumulations.IsZero() {
		p("<h3>Dividends</h3>\n<p>%d received, %s: UK %s (SA100); foreign %s, with %s tax withheld abroad (SA106). Accumulation distributions %s. Dividends are income, not gains.</p>\n",
			dv.Count, pounds(dv.Income), pounds(dv.UKIncome), pounds(dv.ForeignIncome), pounds(dv.ForeignTaxPaid), pounds(dv.Accumulations))
	}
	if len(y.Income) > 0 {
		p("<h3>Income for the return</h3>\n<div class=\"scroll\"><table>\n<tr><th>Form</th><th>Box</th><th>Amount</th><th>Tax taken off</th><th>From</th></tr>\n")
		for _, in := range y.Income {
			parts := make([]string, len(in.Sources))
			for k, s := range in.Sources {
				parts[k] = s.Ticker + " " + records.Pounds(s.Amount.String())
			}
			box := in.Label
			if in.Box != "" {
				box = "box " + in.Box + ": " + box
			}
			p("<tr><td>%s</td><td>%s<br><span class=\"note\">%s</span></td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s</td></tr>\n",
				esc(in.Form), esc(box), esc(in.Note), pounds(in.Amount), pounds(in.TaxTakenOff), esc(strings.Join(parts, ", ")))
		}
		p("</table></div>\n")
	}
}

// writeExcessIncomeHTML lists every excess reportable income figure applied.
func writeExcessIncomeHTML(p func(string, ...any), rows []engine.ExcessIncome) {
	if len(rows) == 0 {
		return
	}
	p("<h2>Fund income: excess reportable income (SI 2009/3001 reg 94; added to cost, reg 99)</h2><div class=\"scroll\"><table>\n")
	p("<tr><th>Received</th><th>Fund</th><th>ISIN</th><th>Period to</th><th>Per unit</th><th>Units</th><th>Amount</th><th>Rate</th><th>Pounds</th><th>Tax year</th><th>Of it, to disposals</th><th>Source</th></tr>\n")
	for _, r := range rows {
		end, src := "", "bundled table"
		if r.PeriodEnd != nil {
			end = r.PeriodEnd.String()
		}
		if r.Source != nil {
			src = r.Source.String()
		}
		fund := r.Ticker
		if r.Name != "" {
			fund += " (" + r.Name + ")"
		}
		p("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s %s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s</td><td class=\"n\">%s</td><td>%s</td></tr>\n",
			r.DistributionDate, esc(fund), esc(r.ISIN), end, esc(r.PerUnit), esc(r.Units.String()), esc(r.Amount.String()), esc(r.Currency),
			esc(r.Rate), pounds(r.GBP), esc(r.TaxYear), pounds(r.ToDisposals), esc(src))
	}
	p("</table></div>\n")
}
