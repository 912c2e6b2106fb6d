package reportview

import (
	"fmt"
	"html/template"
	"io"
	"math/big"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/records"
)

// HTML writes the report as one self-contained page: inline CSS and SVG, no script and no
// network (a Content-Security-Policy forbids every load), readable on a phone and printable to
// PDF from the browser. Everything that comes from the user's files — file names, tickers,
// security names — is escaped by html/template: an export is someone else's text.
func HTML(w io.Writer, rep *engine.Report, ledger string, warnings []string) error {
	return page().Execute(w, newView(rep, ledger, warnings))
}

// view is what the page template reads.
type view struct {
	Title    string
	Years    []yearView
	Chart    template.HTML
	Pools    []poolView
	Holdings []engine.Holding
	SetAside []setAsideView
	Warnings []string
}

type yearView struct {
	*engine.TaxYear
	Rows      []summaryRow
	Boxes     map[string]string
	Disposals []disposalView
}

type disposalView struct {
	*engine.Disposal
	Rules string
	FX    []string
	Where string
}

type poolView struct {
	Ticker string
	Chart  template.HTML
}

type setAsideView struct {
	Title     string
	Disposals []engine.Disposal
}

func newView(rep *engine.Report, ledger string, warnings []string) view {
	v := view{Title: "Capital gains report", Holdings: rep.Holdings, Warnings: warnings}
	if ledger != "" {
		v.Title += ": " + ledger
	}
	for i := range rep.TaxYears {
		ty := &rep.TaxYears[i]
		if !hasActivity(ty) && len(rep.TaxYears) > 1 {
			continue
		}
		v.Years = append(v.Years, newYearView(ty))
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
func yearChart(years []yearView) template.HTML {
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
			x-bw, mid-g, bw, g, template.HTMLEscapeString(y.Period), records.Pounds(y.Gains.String()))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="loss"><title>%s losses %s</title></rect>`,
			x, mid, bw, l, template.HTMLEscapeString(y.Period), records.Pounds(y.Losses.String()))
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" class="label">%s</text>`, x, chartH-8, template.HTMLEscapeString(y.Period))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="value">%s</text>`, x, max(mid-g-4, 12), template.HTMLEscapeString(records.Pounds(y.NetGain.String())))
	}
	fmt.Fprintf(&b, `<text x="4" y="14" class="legend"><tspan class="gain-t">■ gains</tspan> <tspan class="loss-t">■ losses</tspan>, net gain above each year</text>`)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// poolChart draws a pool's quantity and cost after each event, as two step lines on their own
// scales.
func poolChart(p engine.PoolHistory) template.HTML {
	ev := p.Events
	first, last := float64(ev[0].Date), float64(ev[len(ev)-1].Date)
	span := max(last-first, 1)
	maxQ, maxC := 1.0, 1.0
	for _, e := range ev {
		maxQ = max(maxQ, dec(e.Quantity))
		maxC = max(maxC, money(e.Cost))
	}
	x := func(d model.Date) float64 { return padL + (float64(d)-first)/span*(chartW-padL-20) }
	y := func(v, top float64) float64 { return chartH - padB - v/top*(chartH-padB-20) }
	var q, c strings.Builder
	for i, e := range ev {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		} else {
			prev := ev[i-1]
			fmt.Fprintf(&q, " L%.1f %.1f", x(e.Date), y(dec(prev.Quantity), maxQ))
			fmt.Fprintf(&c, " L%.1f %.1f", x(e.Date), y(money(prev.Cost), maxC))
		}
		fmt.Fprintf(&q, " %s%.1f %.1f", cmd, x(e.Date), y(dec(e.Quantity), maxQ))
		fmt.Fprintf(&c, " %s%.1f %.1f", cmd, x(e.Date), y(money(e.Cost), maxC))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s pool: shares and cost over time">`,
		chartW, chartH, template.HTMLEscapeString(p.Ticker))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" class="axis"/>`, padL, chartH-padB, chartW-20, chartH-padB)
	fmt.Fprintf(&b, `<path d="%s" class="qty"/><path d="%s" class="cost"/>`, q.String(), c.String())
	fmt.Fprintf(&b, `<text x="%g" y="%g" class="label">%s</text><text x="%g" y="%g" class="label">%s</text>`,
		padL, chartH-8, ev[0].Date, chartW-20, chartH-8, ev[len(ev)-1].Date)
	fmt.Fprintf(&b, `<text x="4" y="14" class="legend"><tspan class="qty-t">— shares (up to %s)</tspan> <tspan class="cost-t">— cost (up to %s)</tspan></text>`,
		template.HTMLEscapeString(group(fmt.Sprintf("%.0f", maxQ))), template.HTMLEscapeString(records.Pounds(fmt.Sprintf("%.2f", maxC))))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// money and dec give a figure as a float64 for drawing only; no figure the report states is
// computed this way.
func money(m model.Money) float64 {
	f, _ := new(big.Float).SetString(m.String())
	v, _ := f.Float64()
	return v
}

func dec(d model.Decimal) float64 {
	f, _ := new(big.Float).SetString(d.String())
	v, _ := f.Float64()
	return v
}

// page is parsed the first time a page is written, not when the program starts: every command
// of the command line links this package, and few runs write HTML.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pounds": func(m model.Money) string { return records.Pounds(m.String()) },
		"pct":    percent,
		"where":  where,
	}).Parse(pageTemplate))
})

const pageTemplate = `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{{.Title}}</title>
<style>
:root{--ink:#1b1f24;--muted:#5b6470;--line:#d7dce2;--gain:#1f7a4d;--loss:#b3261e;--accent:#24527a}
*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;max-width:980px;padding:16px}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .4em;border-bottom:2px solid var(--accent);padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .3em}
p.note{color:var(--muted);margin:.2em 0 1em}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;margin:.4em 0}th,td{padding:.3em .5em;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.box{color:var(--accent);white-space:nowrap;font-size:.9em}
.neg{color:var(--loss)}.tax{font-weight:600}
details{margin:.2em 0}summary{cursor:pointer;color:var(--accent)}pre{white-space:pre-wrap;font-size:.85em;background:#f5f7f9;padding:.5em;margin:.3em 0}
.chart{width:100%;height:auto;max-width:640px;display:block}.axis{stroke:#8a939e;stroke-width:1}.gain{fill:var(--gain)}.loss{fill:var(--loss)}
.label,.value,.legend{font-size:11px;fill:var(--muted);text-anchor:middle}.legend{text-anchor:start}.gain-t{fill:var(--gain)}.loss-t{fill:var(--loss)}
.qty{fill:none;stroke:var(--accent);stroke-width:2}.cost{fill:none;stroke:#c77c0e;stroke-width:2;stroke-dasharray:5 3}.qty-t{fill:var(--accent)}.cost-t{fill:#c77c0e}
.warn li{margin:.3em 0}
@media print{body{max-width:none;font-size:11pt}details{display:block}details>*:not(summary){display:block}summary{list-style:none}h2{break-after:avoid}table,svg{break-inside:avoid}}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="note">Amounts in pounds sterling. "box N" is the box of that year's SA108 Capital gains summary, with the figure to enter in whole pounds.</p>
{{if .Chart}}<h2>Gains and losses by tax year</h2>{{.Chart}}{{end}}
{{range .Years}}
<h2>Tax year {{.Period}}</h2>
<p class="note">{{.StartDate}} to {{.EndDate}}</p>
{{if eq .DisposalCount 0}}<p>No disposals: nothing to enter on the SA108 for this year.</p>{{else}}
<div class="scroll"><table class="summary">
{{$boxes := .Boxes}}{{range .Rows}}<tr><th>{{.Label}}</th><td class="n">{{.Value}}</td><td class="box">{{index $boxes .Label}}</td></tr>
{{end}}{{with .Tax}}<tr class="tax"><th>Tax due</th><td class="n">{{pounds .Total}}</td><td></td></tr>
{{range .Charges}}<tr><td>{{pct .Rate}} on {{pounds .Gain}} ({{.From}} to {{.To}})</td><td class="n">{{pounds .Tax}}</td><td></td></tr>{{end}}
{{else}}<tr><th>Tax due</th><td colspan="2">give taxable_income to work it out</td></tr>{{end}}
{{with .SA108.Adjustment}}<tr><th>Adjustment to CGT</th><td class="n">{{pounds .}}</td><td class="box">box 51</td></tr>{{end}}
</table></div>
<h3>Disposals</h3>
<div class="scroll"><table>
<tr><th>Date</th><th>Security</th><th class="n">Quantity</th><th class="n">Proceeds</th><th class="n">Cost</th><th class="n">Gain</th><th>Rule</th></tr>
{{range .Disposals}}<tr><td>{{.Date}}</td><td>{{.Ticker}}</td><td class="n">{{.Quantity}}</td><td class="n">{{pounds .Proceeds}}</td><td class="n">{{pounds .AllowableCost}}</td><td class="n{{if lt .Gain.Sign 0}} neg{{end}}">{{pounds .Gain}}</td><td>{{.Rules}}</td></tr>
<tr><td colspan="7"><details><summary>How it was worked out ({{.Where}})</summary>
{{range .FX}}<p>{{.}}</p>{{end}}
{{range .Matches}}<p><strong>{{.Rule}}</strong> ({{.Reference}}): {{.Quantity}} shares{{if .AcquisitionDate}} bought {{.AcquisitionDate}}{{end}}, gain {{pounds .Gain}}</p>
<pre>{{range .Explain}}{{.}}
{{end}}</pre>{{end}}
</details></td></tr>
{{end}}</table></div>
{{end}}
{{if or .Dividends.Count (ne .Dividends.Accumulations.String "0.00")}}<h3>Dividends</h3>
<p>{{.Dividends.Count}} received, {{pounds .Dividends.Income}}: UK {{pounds .Dividends.UKIncome}} (SA100); foreign {{pounds .Dividends.ForeignIncome}}, with {{pounds .Dividends.ForeignTaxPaid}} tax withheld abroad (SA106). Accumulation distributions {{pounds .Dividends.Accumulations}}. Dividends are income, not gains.</p>{{end}}
{{end}}
{{if .Holdings}}<h2>Holdings at the end of the ledger</h2>
<div class="scroll"><table><tr><th>Security</th><th class="n">Quantity</th><th class="n">Cost</th><th class="n">Average cost</th></tr>
{{range .Holdings}}<tr><td>{{.Ticker}}</td><td class="n">{{.Quantity}}</td><td class="n">{{pounds .Cost}}</td><td class="n">£{{.AverageCost}}</td></tr>{{end}}
</table></div>{{end}}
{{if .Pools}}<h2>Section 104 pools over time</h2>
{{range .Pools}}<h3>{{.Ticker}}</h3>{{.Chart}}{{end}}{{end}}
{{range .SetAside}}<h2>{{.Title}}</h2><div class="scroll"><table>
{{range .Disposals}}<tr><td>{{.Date}}</td><td>{{.Ticker}}</td><td class="n">{{.Quantity}}</td><td class="n">{{pounds .Proceeds}}</td><td class="n">{{pounds .AllowableCost}}</td><td class="n">{{pounds .Gain}}</td><td>{{where .Source}}</td></tr>{{end}}
</table></div>{{end}}
{{if .Warnings}}<h2>Check these</h2><ul class="warn">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body>
</html>
`
