package engine

import (
	"fmt"
	"strings"

	"github.com/cgt-tools/cgt/cgt/eri"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/internal/order"
)

// Origins of an excess reportable income figure, as they appear in ExcessIncome.Origin.
const (
	OriginBundled = "bundled" // the per-unit figure of the bundled table, applied by ISIN
	OriginLedger  = "ledger"  // an ERI line of the ledger
)

// ExcessIncome is one offshore reporting fund's excess reportable income for one reporting
// period, as applied: income of the tax year of its fund distribution date (reg 94(3)) and an
// addition to the cost of the units held at the period end (reg 99), the part for units
// disposed of before the distribution date added to those disposals' cost (reg 99(5)).
type ExcessIncome struct {
	_ model.NotComparable

	Ticker           string        `json:"ticker" jsonschema_description:"The holding, upper-case" record:"entity"`
	Name             string        `json:"name,omitempty" jsonschema_description:"The fund's name, as the broker's export gives it"`
	ISIN             string        `json:"isin,omitempty" jsonschema_description:"The share class's ISIN"`
	PeriodEnd        *model.Date   `json:"period_end,omitempty" jsonschema_description:"End of the fund's reporting period (bundled figures)"`
	DistributionDate model.Date    `json:"distribution_date" jsonschema_description:"Fund distribution date: when the income is treated as received (six months after the period end, reg 94(4)); for a ledger line, its date" record:"timestamp"`
	TaxYear          string        `json:"tax_year" jsonschema_description:"Tax year of the income, YYYY/YY"`
	PerUnit          string        `json:"per_unit,omitempty" jsonschema_description:"ERI per unit exactly as the fund published it, in currency (bundled figures)"`
	Currency         string        `json:"currency" jsonschema_description:"Currency of per_unit and amount: the share class's"`
	Units            model.Decimal `json:"units" jsonschema_description:"Units held at the period end (reg 94(3), with reg 94(3A))"`
	Amount           model.Decimal `json:"amount" jsonschema_description:"per_unit × units, exact, in currency"`
	Rate             string        `json:"rate,omitempty" jsonschema_description:"HMRC monthly rate of the distribution date's month, currency units per £1"`
	GBP              model.Money   `json:"gbp" jsonschema_description:"The income in pounds: amount ÷ rate (6 places), shown to the penny"`
	ToDisposals      model.Money   `json:"to_disposals" jsonschema_description:"Part added to the cost of units disposed of before the distribution date (reg 99(5)) (GBP)"`
	Origin           string        `json:"origin" jsonschema_description:"bundled (the table of published figures, applied by ISIN) or ledger (an ERI line)"`
	Source           *SourceRef    `json:"source,omitempty" jsonschema_description:"The ERI line (origin ledger)" record:"source"`
}

// fundRun is the bundled-ERI state of one holding whose ISIN has figures.
type fundRun struct {
	isin    string
	name    string       // the fund's name from the export, if it gives one
	figures []eri.Figure // in period order
	next    int          // the first figure whose period end is not yet passed
	pending []pendingERI // period ends passed, distribution dates not yet reached
	written []model.Date // dates of the holding's written ERI lines
	missing []model.Date // expected period ends with no figure while units were held
}

// pendingERI is a period end passed while units were held.
type pendingERI struct {
	fig      eri.Figure
	fdd      model.Date
	held     num        // units actually held at the period end
	bnb      []bnbUnits // disposals of the period identified with acquisitions of the next (reg 94(3A))
	doneFrom int        // the disposals after the period end start here in tickerRun.done
	t        model.Transaction
}

// bnbUnits is the part of a disposal treated as still held at the period end.
type bnbUnits struct {
	d   *Disposal
	qty num
}

// isinOf is the security's ISIN: declared, labelled on one of its lines, or its name when
// the ledger names it by its ISIN (that is its identity, not a guess); "" when none.
func (c *calc) isinOf(ticker string) string {
	if isin := c.isins[ticker]; isin != "" || !eri.IsISIN(ticker) {
		return isin
	}
	return ticker
}

// fundFor starts the bundled-ERI state of a holding, or returns nil when bundled figures are
// off, the holding's ISIN is unknown or the table has no figures for it.
func (c *calc) fundFor(ticker string, es []entry) *fundRun {
	if c.eri == nil {
		return nil
	}
	isin := c.isinOf(ticker)
	if c.ident != nil && c.ident.nonReporing[ticker] { // declared non-reporting: no reportable income
		return nil
	}
	f := c.eri.Fund(isin)
	if f == nil || len(es) == 0 {
		return nil
	}
	fr := &fundRun{isin: isin, figures: withExpected(f.Figures, c.eri.Newest())}
	for k := range es {
		if es[k].t.Name != "" {
			fr.name = es[k].t.Name
			break
		}
	}
	for k := range es {
		if es[k].t.Action == model.ERI {
			fr.written = append(fr.written, es[k].t.Date)
		}
	}
	return fr
}

// replacedBy reports whether a written ERI line stands for a period: one dated on or after its
// end and no more than a year after it (the distribution date is six months after the end; a
// line dated at the period end or at the report's date is the same figure).
func (fr *fundRun) replacedBy(end model.Date) bool {
	for _, w := range fr.written {
		if w >= end && w <= end.AddDays(366) {
			return true
		}
	}
	return false
}

// before brings the holding's bundled ERI up to the start of date: period ends before it are
// recorded with the units then held, and figures whose distribution date has come are
// applied, before the day's own events (they belong to the units held going into the day).
func (r *tickerRun) fundsBefore(date model.Date, last bool) error {
	fr := r.fund
	for fr.next < len(fr.figures) && (last || fr.figures[fr.next].PeriodEnd < date) {
		r.passPeriodEnd(fr.figures[fr.next])
		fr.next++
	}
	for len(fr.pending) > 0 && (last || fr.pending[0].fdd <= date) {
		p := fr.pending[0]
		fr.pending = fr.pending[1:]
		if err := r.applyBundled(&p); err != nil {
			return err
		}
	}
	return nil
}

// passPeriodEnd records the units held at a period end: those held, and those of a disposal
// in the period identified under s106A with an acquisition after it (reg 94(3A)).
func (r *tickerRun) passPeriodEnd(fig eri.Figure) {
	fr := r.fund
	p := pendingERI{fig: fig, fdd: fig.DistributionDate(), held: r.held, doneFrom: len(r.done)}
	for k := len(r.done) - 1; k >= 0 && r.done[k].Date >= fig.PeriodEnd.AddDays(-bnbWindow); k-- {
		d := r.done[k]
		var q num
		for m := range d.Matches {
			if mt := &d.Matches[m]; mt.Rule == RuleBedAndBreakfast && mt.AcquisitionDate != nil && *mt.AcquisitionDate > fig.PeriodEnd {
				q = q.add(numOfDecimal(mt.Quantity))
			}
		}
		if q.sign() > 0 {
			p.bnb = append(p.bnb, bnbUnits{d, q})
		}
	}
	units := p.units()
	if units.sign() <= 0 || fr.replacedBy(fig.PeriodEnd) {
		return
	}
	if fig.PerUnit == "" {
		fr.missing = append(fr.missing, fig.PeriodEnd)
		return
	}
	fr.pending = append(fr.pending, p)
}

func (p *pendingERI) units() num {
	u := p.held
	for _, b := range p.bnb {
		u = u.add(b.qty)
	}
	return u
}

// applyBundled applies one period's figure on its fund distribution date: per unit × units
// at the period end, converted at the HMRC rate of that date's month; the part for units of
// the period end disposed of since (the Section 104 part of each disposal, up to the units
// left) and for units of reg 94(3A) is added to those disposals' cost (reg 99(5)), the rest to
// the pool's.
func (r *tickerRun) applyBundled(p *pendingERI) error {
	units := p.units()
	amount := units.mul(numOf(p.fig.Value()))
	row := ExcessIncome{Ticker: r.ticker, Name: r.fund.name, ISIN: r.fund.isin, DistributionDate: p.fdd,
		TaxYear: taxyear.For(p.fdd).Period(), PerUnit: p.fig.PerUnit, Currency: p.fig.Currency,
		Units: units.quantity(), Amount: amount.quantity(), Origin: OriginBundled}
	end := p.fig.PeriodEnd
	row.PeriodEnd = &end
	p.t = model.Transaction{Date: p.fdd, Action: model.ERI, Ticker: r.ticker, Quantity: units.quantity(),
		Total: model.Amount{Value: amount.quantity(), Currency: p.fig.Currency}, ISIN: r.fund.isin,
		Source: model.Source{File: "bundled ERI " + r.fund.isin + " " + end.String(), Index: -1}}
	gbp := amount
	if p.fig.Currency != model.GBP {
		rate, err := r.bundledRate(p.fig.Currency, p.fdd)
		if err != nil {
			r.out.warnings = append(r.out.warnings, fmt.Sprintf("bundled ERI for %s (%s), period ending %s, not applied: no HMRC rate converts %s %s on %s; "+
				"write the line yourself: %s ERI %s %s TOTAL AMOUNT GBP", r.ticker, r.fund.isin, end, amount.quantity(), p.fig.Currency, p.fdd,
				p.fdd, r.ticker, units.quantity()))
			return nil
		}
		row.Rate = rate.Text()
		gbp = amount.divRound(numOf(rate.PerGBP), fxPlaces)
	}
	row.GBP = gbp.money()
	if gbp.isZero() {
		r.out.eri = append(r.out.eri, row)
		return nil
	}
	var toDisposals num
	give := func(d *Disposal, take num) {
		share := mulDivNum(gbp, take, units)
		amendCost(d, share, &p.t)
		toDisposals = toDisposals.add(share)
	}
	for _, b := range p.bnb {
		give(b.d, b.qty)
	}
	left := p.held
	for _, d := range r.done[p.doneFrom:] {
		if left.sign() <= 0 {
			break
		}
		var q104 num
		for m := range d.Matches {
			if d.Matches[m].Rule == RuleSection104 {
				q104 = q104.add(numOfDecimal(d.Matches[m].Quantity))
			}
		}
		if take := minNum(left, q104); take.sign() > 0 {
			give(d, take)
			left = left.sub(take)
		}
	}
	row.ToDisposals = toDisposals.money()
	if toPool := gbp.sub(toDisposals); left.sign() > 0 && toPool.sign() > 0 {
		r.pool.cost = r.pool.cost.add(toPool)
		r.recordRef(&p.t, EventERI, RefERI, num{}, toPool)
	}
	r.out.incomes = append(r.out.incomes, income{date: p.fdd, eri: true, foreign: true, amount: gbp, ticker: r.ticker, src: p.t.Source})
	r.out.eri = append(r.out.eri, row)
	return nil
}

// bundledRate is the HMRC rate of a currency in a date's month, looked up directly: a bundled
// figure with no rate is left out with a warning, never deferred or failed.
func (r *tickerRun) bundledRate(currency string, d model.Date) (fx.Rate, error) {
	if r.conv.rates == nil {
		return fx.Rate{}, fmt.Errorf("no exchange rates")
	}
	rate, err := r.conv.rates.Rate(currency, d.Year(), d.Month())
	if err == nil && rate.PerGBP.Sign() <= 0 {
		err = fmt.Errorf("the rate is not positive")
	}
	return rate, err
}

// withExpected adds, among a fund's figures, a marker (no PerUnit) for each annual period end
// the table has no figure for: a gap of more than a year between two figures, or a year after
// the last one up to the table's newest period end. Held over, such a period is named.
func withExpected(figs []eri.Figure, newest model.Date) []eri.Figure {
	out := make([]eri.Figure, 0, len(figs)+2)
	for k, f := range figs {
		out = append(out, f)
		limit := newest
		if k+1 < len(figs) {
			limit = figs[k+1].PeriodEnd.AddDays(-45)
		}
		for next := nextYear(f.PeriodEnd); next <= limit && len(out) < len(figs)+64; next = nextYear(next) {
			out = append(out, eri.Figure{PeriodEnd: next, Currency: f.Currency})
		}
	}
	return out
}

// nextYear is the same day a year later (29 February → 28 February).
func nextYear(d model.Date) model.Date {
	day := d.Day()
	if d.Month() == 2 && day == 29 {
		day = 28
	}
	return model.NewDate(d.Year()+1, d.Month(), day)
}

// missingWarning names the periods a holding was held over with no figure in the table.
func (r *tickerRun) missingWarning() {
	fr := r.fund
	if len(fr.missing) == 0 {
		return
	}
	ends := make([]string, len(fr.missing))
	for k, d := range fr.missing {
		ends[k] = d.String()
	}
	r.out.warnings = append(r.out.warnings, fmt.Sprintf("%s (%s) was held at the end of the reporting period(s) ending %s, for which the bundled table has no "+
		"excess reportable income figure: the fund may have stopped reporting (then gains are offshore income gains: NONREPORTING), or the table lacks the year; "+
		"check the manager's report and write the ERI line if there is one", r.ticker, fr.isin, strings.Join(ends, ", ")))
}

// isinsOf gives each security its ISIN: from an ISIN declaration, else from the first ISIN
// label of its lines. A ticker declared with two ISINs, an ISIN declared for two securities,
// or a declaration that contradicts a label of the security's lines is an error naming both
// lines.
func isinsOf(txns []model.Transaction, id *identity) (map[string]string, error) {
	out := map[string]string{}
	decl := map[string]*model.Transaction{}   // security → its declaration
	byISIN := map[string]*model.Transaction{} // ISIN → its declaration
	for i := range txns {
		t := &txns[i]
		if t.Action != model.ISINDecl {
			continue
		}
		sec := id.name(t.Ticker)
		if o := decl[sec]; o != nil && o.ISIN != t.ISIN {
			return nil, lineError(t, fmt.Sprintf("%s is declared with two ISINs: %s here and %s at %s", sec, t.ISIN, o.ISIN, where(o.Source)),
				"one security has one ISIN: keep the declaration that matches the fund held (its factsheet or contract note gives the ISIN)",
				t.Date.String()+" ISIN "+sec+" "+o.ISIN)
		}
		if o := byISIN[t.ISIN]; o != nil && id.name(o.Ticker) != sec {
			return nil, lineError(t, fmt.Sprintf("ISIN %s is declared for two tickers: %s here and %s at %s", t.ISIN, strings.ToUpper(t.Ticker), strings.ToUpper(o.Ticker), where(o.Source)),
				"if the two tickers are one security, say so with ALIAS (one pool) and declare the ISIN once; if not, one of the ISINs is wrong",
				o.Date.String()+" ALIAS "+strings.ToUpper(o.Ticker)+" "+strings.ToUpper(t.Ticker))
		}
		decl[sec], byISIN[t.ISIN] = t, t
		out[sec] = t.ISIN
	}
	secOf := map[string]string{} // the ticker as written → its security, so a large export upper-cases each ticker once
	for i := range txns {
		t := &txns[i]
		if t.ISIN == "" || t.Action == model.ISINDecl || isDeclaration(t.Action) {
			continue
		}
		sec, ok := secOf[t.Ticker]
		if !ok {
			sec = id.name(t.Ticker)
			secOf[t.Ticker] = sec
		}
		if len(decl) == 0 {
			if _, ok := out[sec]; ok {
				continue
			}
		}
		if d := decl[sec]; d != nil && d.ISIN != t.ISIN && strings.EqualFold(t.Ticker, d.Ticker) {
			return nil, lineError(d, fmt.Sprintf("%s is declared with ISIN %s, but %s gives it %s", sec, d.ISIN, where(t.Source), t.ISIN),
				"keep the ISIN of the fund held: correct the declaration, or remove it and let the export's ISIN stand",
				d.Date.String()+" ISIN "+sec+" "+t.ISIN)
		}
		if _, ok := out[sec]; !ok {
			out[sec] = t.ISIN
		}
	}
	return out, nil
}

// eriHints suggests an ISIN declaration for each holding known only by a ticker that the
// bundled table gives to a fund with published figures: a ticker is never enough to apply them.
func (c *calc) eriHints() []string {
	if c.eri == nil {
		return nil
	}
	var out []string
	for i, tk := range c.led.tickers {
		if c.isins[tk] != "" || len(c.led.txns[i]) == 0 {
			continue
		}
		isin, ok := c.eri.ISINOfTicker(tk)
		if !ok {
			continue
		}
		first := c.txns[c.led.txns[i][0]].Date
		out = append(out, fmt.Sprintf("%s has no ISIN, so no bundled ERI applies: add `%s ISIN %s %s` if that is its ISIN",
			tk, first, tk, isin))
	}
	return out
}

// eriSummary is the one warning that lists where the applied figures come from.
func eriSummary(rows []ExcessIncome) string {
	n := 0
	for _, r := range rows {
		if r.Origin == OriginBundled {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d excess reportable income figure(s) from the bundled table were applied (listed in eri): they are the fund managers' "+
		"published reports of reportable income per unit (Vanguard, iShares, BlackRock, Invesco, Xtrackers), as compiled by cgt-calc; check each against "+
		"the manager's report for the period (its website's UK reporting fund pages; HMRC lists reporting funds on GOV.UK). A written ERI line for the "+
		"same holding and period replaces the figure; eri=off leaves bundled figures out", n)
}

// sortExcessIncome orders the listing by distribution date, then ticker.
func sortExcessIncome(rows []ExcessIncome) {
	order.Stable(rows, func(a, b ExcessIncome) int {
		if a.DistributionDate != b.DistributionDate {
			return int(a.DistributionDate - b.DistributionDate)
		}
		return strings.Compare(a.Ticker, b.Ticker)
	})
}
