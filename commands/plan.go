package commands

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// The planning commands (plan.sale, plan.allowance, plan.harvest) answer what a sale would
// do by writing it as a ledger line, appending it to the ledger and running the engine: every
// figure is the engine's, with every identification rule, never an estimate beside it.

// planNote is the line every plan result carries: it is a projection, not a record.
const planNote = "A projection: the ledger plus sales that have not happened, at the prices given; nothing is written to the ledger."

// planFile is the name the planned sale lines are read under (cited as plan:N).
const planFile = "plan"

// planPrefix is the word, in a ticker or a planned line, that the engine's warnings about
// planned lines start with; those warnings are about the plan, not the ledger, and are left out.
const planPrefix = planFile + " line"

// PlanArgs are the arguments the three planning commands share.
type PlanArgs struct {
	LedgerArgs
	Date                 string `json:"date,omitempty" jsonschema:"format=date" jsonschema_description:"Sale date (default today)."`
	LossesBroughtForward string `json:"losses_brought_forward,omitempty" jsonschema:"pattern=^[0-9]+(\\.[0-9]+)?$" jsonschema_description:"Losses from before the ledger (GBP)." cgt:"alias=losses"`
	RatesArgs
}

// YearFigures are a tax year's totals as the engine gives them, with what is left of the
// annual exempt amount.
type YearFigures struct {
	NetGain         model.Money  `json:"net_gain" jsonschema_description:"Gains minus losses of the year's disposals (GBP)."`
	Gains           model.Money  `json:"gains" jsonschema_description:"Gains of the year's disposals with a gain (GBP)."`
	Losses          model.Money  `json:"losses" jsonschema_description:"Losses of the year's disposals with a loss, positive (GBP)."`
	ExemptLeft      model.Money  `json:"exempt_left" jsonschema_description:"Annual exempt amount minus net gain, not below 0 (GBP)."`
	LossesAvailable model.Money  `json:"losses_available" jsonschema_description:"Losses brought forward into the year (GBP)."`
	TaxableGain     model.Money  `json:"taxable_gain" jsonschema_description:"Taxable gain of the year (GBP)."`
	Tax             *model.Money `json:"tax,omitempty" jsonschema_description:"Capital Gains Tax of the year, when taxable_income is given (GBP)."`
}

// planner holds a ledger read once, and runs the engine on it with planned lines appended.
type planner struct {
	txns    []model.Transaction
	opts    engine.Options
	rates   *latestRates
	today   model.Date
	date    model.Date
	year    taxyear.Year
	base    *engine.Report
	baseTY  engine.TaxYear
	income  *tax.Income
	ledger  string
	warning []string
}

// newPlanner reads the ledger, works out the plan's date (the date argument, or today) and
// runs the engine once on the ledger as it is.
func newPlanner(deps *registry.Deps, a PlanArgs) (*planner, error) {
	p := &planner{ledger: a.ledgerName()}
	p.today = registry.LocalToday()
	if deps.Today != nil {
		p.today = deps.Today()
	}
	p.date = p.today
	if a.Date != "" {
		d, err := model.ParseDate(a.Date)
		if err != nil {
			return nil, envelope.New(envelope.InvalidArgument, "date: "+err.Error(), "Give the date as YYYY-MM-DD.", `{"date":"2027-03-20"}`).With("value", a.Date).With("argument", "date")
		}
		p.date = d
	}
	p.year = taxyear.For(p.date)
	lbf, err := parseLosses(a.LossesBroughtForward)
	if err != nil {
		return nil, err
	}
	txns, warnings, err := readLedger(deps, a.ledger())
	p.warning = warnings
	if err != nil {
		return nil, err
	}
	src, more, err := a.RatesArgs.source(deps)
	p.warning = append(p.warning, more...)
	if err != nil {
		return nil, err
	}
	p.rates = &latestRates{base: src}
	p.txns = txns
	p.opts = engine.Options{Rates: p.rates, LossesBroughtForward: lbf, Today: p.today}
	rep, err := engine.Calculate(txns, p.opts)
	if err != nil {
		return nil, withRatesRemedy(err, src)
	}
	p.base = rep
	p.warning = append(p.warning, rep.Warnings...)
	p.baseTY = yearOrEmpty(rep, p.year)
	return p, nil
}

// setYear makes the plan about another tax year than the date's.
func (p *planner) setYear(y taxyear.Year) {
	p.year = y
	p.baseTY = yearOrEmpty(p.base, y)
}

// sale is one planned sale: what the ledger line says.
type sale struct {
	ticker   string
	quantity decimal.Decimal
	price    price
	fees     *price
}

// line writes the sale as a ledger line dated d.
func (s sale) line(d model.Date) string {
	l := fmt.Sprintf("%s SELL %s %s @ %s", d, s.ticker, s.quantity.String(), s.price.String())
	if s.fees != nil {
		l += " FEES " + s.fees.String()
	}
	return l
}

// run appends the sales (one ledger line each, dated the plan's date) to the ledger and runs
// the engine: the report, and the tax year of the plan.
func (p *planner) run(sales []sale) (*engine.Report, engine.TaxYear, error) {
	if len(sales) == 0 {
		return p.base, p.baseTY, nil
	}
	var b strings.Builder
	for _, s := range sales {
		b.WriteString(s.line(p.date))
		b.WriteByte('\n')
	}
	extra, err := dsl.Parse(planFile, []byte(b.String()))
	if err != nil {
		return nil, engine.TaxYear{}, err
	}
	all := make([]model.Transaction, 0, len(p.txns)+len(extra))
	all = append(append(all, p.txns...), extra...)
	rep, err := engine.Calculate(all, p.opts)
	if err != nil {
		return nil, engine.TaxYear{}, withRatesRemedy(err, p.rates.base)
	}
	return rep, yearOrEmpty(rep, p.year), nil
}

// figures are a tax year's totals with the exempt amount left and, given income, the tax.
func (p *planner) figures(ty engine.TaxYear) YearFigures {
	f := YearFigures{NetGain: ty.NetGain, Gains: ty.Gains, Losses: ty.Losses,
		ExemptLeft: model.NewMoney(exemptLeft(ty)), LossesAvailable: ty.LossesBroughtForward, TaxableGain: ty.TaxableGain}
	if p.income != nil {
		engine.ApplyTax(&ty, p.income)
		if ty.Tax != nil {
			t := ty.Tax.Total
			f.Tax = &t
		}
	}
	return f
}

// exemptLeft is the annual exempt amount minus the year's net gain (a net loss adds to it),
// not below zero.
func exemptLeft(ty engine.TaxYear) decimal.Decimal {
	left := ty.AnnualExemptAmount.Exact().Sub(ty.NetGain.Exact())
	if left.Sign() < 0 {
		return decimal.Zero
	}
	return left
}

// heldAt is the Section 104 holding of a ticker at the end of the plan's date, found
// case-insensitively; ok is false when none is held.
func (p *planner) heldAt(ticker string) (engine.Holding, bool) {
	for _, h := range p.base.HoldingsAt(p.date) {
		if strings.EqualFold(h.Ticker, ticker) {
			return h, true
		}
	}
	return engine.Holding{}, false
}

// notHeld is the error for a sale of a ticker not held on the plan's date, naming those held.
func (p *planner) notHeld(ticker string) error {
	var held []string
	for _, h := range p.base.HoldingsAt(p.date) {
		held = append(held, h.Ticker)
	}
	msg := fmt.Sprintf("%s is not held on %s", ticker, p.date)
	if len(held) == 0 {
		msg += ": nothing is held then"
	} else {
		msg += "; held then: " + strings.Join(held, ", ")
	}
	hint := "Name a ticker held on the plan's date (holdings.list shows them)."
	example := `{"ticker":"VWRL","quantity":"10","price":"98.20 GBP"}`
	if near := engine.NearTickers(ticker, held); len(near) > 0 {
		hint = "Did you mean " + strings.Join(near, " or ") + "? " + hint
		example = `{"ticker":"` + near[0] + `","quantity":"10","price":"98.20 GBP"}`
	}
	return envelope.New(envelope.InvalidArgument, msg, hint, example).With("argument", "ticker").With("value", ticker)
}

// warnings are the ledger's warnings, those about the planned lines left out (the plan's own
// notes say what matters), and the rates substituted for months past the bundled table.
func (p *planner) warnings(extra ...string) []string {
	out := []string{}
	for _, w := range p.warning {
		if !strings.HasPrefix(w, planPrefix) {
			out = append(out, w)
		}
	}
	out = append(out, p.rates.notes()...)
	if p.year.Projected() {
		out = append(out, p.year.Notes()...)
	}
	return append(out, extra...)
}

// rebuyWindow is the last day a purchase is matched with a sale on d (the 30-day rule), and the
// first day a purchase is not.
func rebuyWindow(d model.Date) (until, safe model.Date) { return d.AddDays(30), d.AddDays(31) }

// price is an amount of money per share in a currency (GBP when none is given; GBX and GBp
// are pence, read as the ledger reads them).
type price struct {
	amount   decimal.Decimal
	currency string
}

func (p price) String() string { return p.amount.String() + " " + p.currency }

// parsePrice reads "230.00 USD", "98.2", 98.2 or {"amount": "230.00", "currency": "USD"}.
func parsePrice(arg string, v any) (price, error) {
	bad := func(what string) error {
		return envelope.New(envelope.InvalidArgument, fmt.Sprintf("%s: %s is not a price", arg, what),
			"Give an amount and a currency, e.g. \"230.00 USD\" or {\"amount\": \"230.00\", \"currency\": \"USD\"}; GBP when no currency is given, GBX for pence.",
			arg+`="230.00 USD"`).With("argument", arg).With("value", what)
	}
	var amount, currency string
	switch t := v.(type) {
	case string:
		f := strings.Fields(t)
		switch len(f) {
		case 1:
			amount = f[0]
		case 2:
			amount, currency = f[0], f[1]
		default:
			return price{}, bad(fmt.Sprintf("%q", t))
		}
	case float64:
		amount = decimal.NewFromFloat(t).String()
	case map[string]any:
		amount, currency = fmt.Sprint(t["amount"]), ""
		if c, ok := t["currency"].(string); ok {
			currency = c
		}
		if t["amount"] == nil {
			return price{}, bad("an object without amount")
		}
	default:
		if s := fmt.Sprint(v); s != "" && v != nil {
			amount = s
		} else {
			return price{}, bad("nothing")
		}
	}
	amount = strings.TrimPrefix(strings.ReplaceAll(amount, ",", ""), "£")
	d, err := plainDecimal(amount)
	if err != nil || d.Sign() <= 0 {
		return price{}, bad(fmt.Sprintf("%q", amount))
	}
	if currency == "" {
		currency = model.GBP
	}
	if currency != "GBp" {
		currency = strings.ToUpper(currency)
	}
	if !dsl.IsCurrency(currency) && currency != "GBX" && currency != "GBp" {
		return price{}, bad(fmt.Sprintf("%q (currency %q)", amount+" "+currency, currency))
	}
	return price{amount: d, currency: currency}, nil
}

// parsePrices reads "AAPL=190.50 USD,VWRL=98.2", a list of such items, or an object from
// ticker to price. Tickers are upper-cased.
func parsePrices(v any) (map[string]price, []string, error) {
	out := map[string]price{}
	var order []string
	add := func(ticker string, pv any) error {
		ticker = strings.ToUpper(strings.TrimSpace(ticker))
		if ticker == "" {
			return envelope.New(envelope.InvalidArgument, "prices: an item has no ticker", "Write each price as TICKER=PRICE [CURRENCY].",
				`prices="AAPL=190.50 USD,VWRL=98.2"`).With("argument", "prices")
		}
		pr, err := parsePrice("prices."+ticker, pv)
		if err != nil {
			return err
		}
		if _, dup := out[ticker]; !dup {
			order = append(order, ticker)
		}
		out[ticker] = pr
		return nil
	}
	item := func(s string) error {
		for _, part := range strings.Split(s, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			t, pv, ok := strings.Cut(part, "=")
			if !ok {
				t, pv, ok = strings.Cut(part, ":")
			}
			if !ok {
				return envelope.New(envelope.InvalidArgument, fmt.Sprintf("prices: %q has no =", strings.TrimSpace(part)),
					"Write each price as TICKER=PRICE [CURRENCY].", `prices="AAPL=190.50 USD,VWRL=98.2"`).With("argument", "prices").With("value", part)
			}
			if err := add(t, strings.TrimSpace(pv)); err != nil {
				return err
			}
		}
		return nil
	}
	switch t := v.(type) {
	case nil:
	case string:
		if err := item(t); err != nil {
			return nil, nil, err
		}
	case []any:
		for _, it := range t {
			s, ok := it.(string)
			if !ok {
				return nil, nil, envelope.New(envelope.InvalidArgument, fmt.Sprintf("prices: %v is not TICKER=PRICE", it),
					"Give a list of strings TICKER=PRICE [CURRENCY].", `{"prices":["AAPL=190.50 USD","VWRL=98.2"]}`).With("argument", "prices")
			}
			if err := item(s); err != nil {
				return nil, nil, err
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := add(k, t[k]); err != nil {
				return nil, nil, err
			}
		}
	default:
		return nil, nil, envelope.New(envelope.InvalidArgument, "prices: expected TICKER=PRICE items", "Give prices as \"AAPL=190.50 USD,VWRL=98.2\", a list or an object.",
			`prices="AAPL=190.50 USD,VWRL=98.2"`).With("argument", "prices")
	}
	return out, order, nil
}

// plainDecimal reads digits with an optional fraction (no exponent, no sign), as a ledger
// writes amounts and quantities; at most 30 characters.
func plainDecimal(s string) (decimal.Decimal, error) {
	if !isPlainNumber(s) || len(s) > 30 {
		return decimal.Zero, fmt.Errorf("%q is not a plain number", s)
	}
	return decimal.NewFromString(s)
}

// latestRates answers from the rates given, and for a month after the last one they have for
// a currency uses that last month, noting it: a planned sale can be dated past the bundled table.
type latestRates struct {
	base fx.Source
	only map[string]bool // when set, the months ("2026-12") that may fall back
	mu   sync.Mutex
	used map[string]string // "USD 2026-12" -> "2026-10"
}

// extraMonths are the months ("2026-12") of the transactions read from extra lines, or nil.
func extraMonths(txns []model.Transaction) map[string]bool {
	var out map[string]bool
	for _, t := range txns {
		if t.Source.File != extraFile {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[t.Date.String()[:7]] = true
	}
	return out
}

func (l *latestRates) Rate(currency string, year int, month time.Month) (fx.Rate, error) {
	r, err := l.base.Rate(currency, year, month)
	if err == nil {
		return r, nil
	}
	var me *model.Error
	if !errors.As(err, &me) || me.Code != model.CodeFXUnavailable {
		return r, err
	}
	if l.only != nil && !l.only[fmt.Sprintf("%d-%02d", year, int(month))] {
		return r, err
	}
	near, _ := me.Context["nearest"].(map[string]string)
	before := near["before"]
	if before == "" || near["after"] != "" {
		return r, err
	}
	t, perr := time.Parse("2006-01", before)
	if perr != nil {
		return r, err
	}
	r2, err2 := l.base.Rate(currency, t.Year(), t.Month())
	if err2 != nil {
		return r, err
	}
	l.mu.Lock()
	if l.used == nil {
		l.used = map[string]string{}
	}
	l.used[fmt.Sprintf("%s %d-%02d", strings.ToUpper(currency), year, int(month))] = before
	l.mu.Unlock()
	return r2, nil
}

// notes says which months were converted at an earlier month's rate.
func (l *latestRates) notes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := make([]string, 0, len(l.used))
	for k := range l.used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []string{}
	for _, k := range keys {
		out = append(out, fmt.Sprintf("no HMRC rate yet for %s: converted at the latest month bundled, %s; the figures will move when that month's rate is published (pass it in rates).", k, l.used[k]))
	}
	return out
}

// gbp writes an amount of pounds for people: £2,911.40, -£120.00.
func gbp(m model.Money) string {
	d := m.Exact().Round(2)
	if d.Sign() < 0 {
		return "-£" + money(d.Neg())
	}
	return "£" + money(d)
}

// priceText writes a price for people: £98.20, $230.00, 9820 GBX.
func priceText(p price) string {
	switch p.currency {
	case model.GBP:
		return "£" + money(p.amount)
	case "USD":
		return "$" + money(p.amount)
	}
	return p.amount.String() + " " + p.currency
}

// delta is after minus before.
func delta(after, before model.Money) model.Money {
	return model.NewMoney(after.Exact().Sub(before.Exact()))
}

// findDisposal is the report's disposal of ticker on d, if any.
func findDisposal(ty engine.TaxYear, ticker string, d model.Date) *engine.Disposal {
	for i := range ty.Disposals {
		if ty.Disposals[i].Date == d && strings.EqualFold(ty.Disposals[i].Ticker, ticker) {
			return &ty.Disposals[i]
		}
	}
	return nil
}

// purchasesWithin lists the ledger's acquisitions of ticker from d to d+30 (same day
// included): each would be matched with a sale on d before the pool.
func (p *planner) purchasesWithin(ticker string, d model.Date) (sameDay bool, later []model.Date) {
	until, _ := rebuyWindow(d)
	for _, t := range p.txns {
		if !strings.EqualFold(t.Ticker, ticker) || t.Action != model.Buy || t.Date < d || t.Date > until {
			continue
		}
		if t.Date == d {
			sameDay = true
		} else {
			later = append(later, t.Date)
		}
	}
	return sameDay, later
}

// incomeFor is the taxable income argument read as one amount for the plan's year.
func incomeFor(ya *YearAmounts, y taxyear.Year) (*tax.Income, error) {
	in, err := readIncome(ya, nil)
	if err != nil {
		return nil, err
	}
	return in.forYear(y), nil
}
