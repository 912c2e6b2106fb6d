package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/internal/order"
)

// A harvest is one combined set of sales that brings the tax year's net gain as close to an
// aim as whole shares allow without passing it: from below by selling holdings at a gain, from
// above by selling holdings at a loss. The search is exact: each holding's gain for k shares is
// the engine's (the holding's own transactions with the sale appended, checked against the
// whole ledger), and a branch and bound over the holdings looks at every combination that could
// come closer than the best found, until one reaches the aim to the penny. It stops at a bound
// (evaluations or time) and says so; the sales it gives are then the closest found.

// HarvestOptions are what a harvest is asked for.
type HarvestOptions struct {
	Prices  map[string]Price // by upper-case ticker
	Target  decimal.Decimal  // the year's net gain to aim at
	Margin  decimal.Decimal  // pounds to leave unused short of the target (not negative)
	Fees    *Price           // dealing costs of each sale
	Only    []string         // when set, the holdings to use (upper-case tickers)
	Exclude []string         // holdings not to use (upper-case tickers)
	// Provisional reports a currency whose rate for the plan's month is not published yet:
	// holdings priced in it are used only when they bring the plan closer.
	Provisional func(currency string) bool
	// MaxEvaluations and MaxTime bound the search (defaults 100,000 and 1.5 s).
	MaxEvaluations int
	MaxTime        time.Duration
}

// Harvest is the set of sales a harvest chose.
type Harvest struct {
	Direction   string          // gains, losses or none
	Aim         decimal.Decimal // the target less the margin (gains), or plus it (losses)
	Sales       []Chosen
	After       engine.TaxYear
	Unpriced    []string // holdings without a price, not considered
	Unsellable  []string // holdings whose full sale the ledger's later transactions cannot follow
	Offshore    []string // non-reporting funds: their gains are income, not for the exempt amount
	Bounded     bool     // the search stopped at its bound: the sales are the closest found
	Evaluations int      // gains worked out by the engine during the search
	// KnownOnly is set when holdings priced in a currency with a provisional rate were left
	// out because the others reach the same total; Provisional names the sales that rest on
	// such a rate.
	KnownOnly    bool
	KnownShortBy decimal.Decimal // how much closer the holdings left out would have come
	Provisional  []string
	Coupled      bool // the sales together differ from the sum of each alone (a takeover links them); reduced to fit
}

// Chosen is one sale of a harvest.
type Chosen struct {
	_ model.NotComparable

	Sale
	Held    decimal.Decimal // shares held on the date
	Gain    model.Money     // the change in the year's net gain when this sale alone is appended
	Whole   bool            // the whole holding is sold
	OneMore *bool           // for a part sale: one more unit would pass the aim
}

// Unit is the smallest quantity planned for a holding: one share, or the holding's own
// smallest decimal place when it holds a fraction of a share.
func Unit(q decimal.Decimal) decimal.Decimal {
	if q.Equal(q.Truncate(0)) {
		return decimal.NewFromInt(1)
	}
	exp := q.Exponent()
	if exp < -10 {
		exp = -10
	}
	return decimal.New(1, exp)
}

// Harvest chooses the sales (see the package's note on harvests).
func (p *Planner) Harvest(o HarvestOptions) (Harvest, error) {
	var hp Harvest
	net := p.BaseTY.NetGain.Exact()
	dir := 0
	switch {
	case net.LessThan(o.Target):
		dir, hp.Direction, hp.Aim = 1, "gains", o.Target.Sub(o.Margin)
	case net.GreaterThan(o.Target):
		dir, hp.Direction, hp.Aim = -1, "losses", o.Target.Add(o.Margin)
	default:
		hp.Direction, hp.After, hp.Aim = "none", p.BaseTY, o.Target
		return hp, nil
	}
	slack := pence(hp.Aim.Sub(net).Mul(decimal.NewFromInt(int64(dir))))
	if slack <= 0 {
		hp.After = p.BaseTY
		return hp, nil
	}
	s := &search{p: p, dir: dir, maxEval: o.MaxEvaluations, until: time.Now().Add(o.MaxTime)}
	if s.maxEval <= 0 {
		s.maxEval = 100000
	}
	if o.MaxTime <= 0 {
		s.until = time.Now().Add(1500 * time.Millisecond)
	}
	curves, err := p.curves(o, dir, s, &hp)
	if err != nil {
		return hp, err
	}
	// Holdings priced in a currency whose rate is provisional are used only when they bring the
	// plan closer by more than their own uncertainty could take away: £10, or 1% of what is left.
	known := slices.DeleteFunc(slices.Clone(curves), func(c *curve) bool { return c.provisional })
	best := s.solve(known, slack)
	if len(known) < len(curves) {
		hp.KnownOnly = true
		if best.total < slack {
			if all := s.solve(curves, slack); all.total-best.total > max(1000, slack/100) {
				best, hp.KnownOnly = all, false
			} else {
				hp.KnownShortBy = decimal.New(all.total-best.total, -2)
			}
		}
	}
	if err := s.err(); err != nil {
		return hp, err
	}
	hp.Bounded, hp.Evaluations = s.bounded, s.evals
	return p.finish(hp, best, s, slack, dir)
}

// pence is an amount of pounds in whole pence (the engine's totals are whole pence).
func pence(d decimal.Decimal) int64 { return d.Shift(2).Floor().IntPart() }

// curve is one holding's gain (towards the aim, in pence) for k units sold, worked out by the
// engine on demand and remembered.
type curve struct {
	h           engine.Holding
	pr          Price
	fees        *Price
	unit        decimal.Decimal
	n           int64 // units held; the n-th sells the whole holding (any fraction included)
	txns        []model.Transaction
	base        decimal.Decimal // the year's net gain of txns alone
	memo        map[int64]int64
	provisional bool
}

// sale is the sale of k units.
func (c *curve) sale(k int64) Sale {
	q := c.h.Quantity.Exact()
	if k < c.n {
		q = c.unit.Mul(decimal.NewFromInt(k))
	}
	return Sale{Ticker: c.h.Ticker, Quantity: q, Price: c.pr, Fees: c.fees}
}

// search is a harvest's branch and bound, with its budget.
type search struct {
	p       *Planner
	dir     int
	evals   int
	nodes   int // calls of stop: the combinations looked at, evaluated or remembered
	maxEval int
	until   time.Time
	bounded bool
	fail    error
}

// err is the error that stopped the search: a cancelled call's.
func (s *search) err() error { return s.fail }

// stop reports whether the search must end: its bound reached, or the call cancelled.
func (s *search) stop() bool {
	if s.fail != nil || s.bounded {
		return true
	}
	if err := s.p.context().Err(); err != nil {
		s.fail = err
		return true
	}
	s.nodes++
	if s.evals >= s.maxEval || s.nodes >= 50*s.maxEval || s.nodes%256 == 0 && time.Now().After(s.until) {
		s.bounded = true
	}
	return s.bounded
}

// infeasible marks a quantity the ledger cannot follow (its later transactions sell shares
// the planned sale would have sold): never chosen.
const infeasible = int64(1) << 62

// at is the curve's gain for k units, in pence towards the aim.
func (s *search) at(c *curve, k int64) int64 {
	if k <= 0 {
		return 0
	}
	if v, ok := c.memo[k]; ok {
		return v
	}
	s.evals++
	v := infeasible
	if d, err := s.p.gainOn(c.txns, c.base, c.sale(k)); err == nil {
		v = pence(d.Mul(decimal.NewFromInt(int64(s.dir))))
	} else if s.p.context().Err() != nil {
		s.fail = s.p.context().Err()
	}
	c.memo[k] = v
	return v
}

// gainOn is the change in the plan year's net gain when the sale is appended to txns, whose
// year's net gain is base.
func (p *Planner) gainOn(txns []model.Transaction, base decimal.Decimal, s Sale) (decimal.Decimal, error) {
	line, err := dsl.Parse(File, []byte(s.Line(p.Date)+"\n"))
	if err != nil {
		return decimal.Zero, err
	}
	all := make([]model.Transaction, 0, len(txns)+1)
	rep, err := engine.Calculate(append(append(all, txns...), line...), p.Opts)
	if err != nil {
		return decimal.Zero, err
	}
	return rep.Year(p.Year).NetGain.Exact().Sub(base), nil
}

// curves are the holdings a harvest may sell: priced, chosen by only and exclude, and whose
// full sale moves the net gain towards the aim.
func (p *Planner) curves(o HarvestOptions, dir int, s *search, hp *Harvest) ([]*curve, error) {
	var out []*curve
	for _, h := range p.Holdings() {
		up := strings.ToUpper(h.Ticker)
		if len(o.Only) > 0 && !slices.Contains(o.Only, up) || slices.Contains(o.Exclude, up) {
			continue
		}
		pr, ok := o.Prices[up]
		if !ok {
			hp.Unpriced = append(hp.Unpriced, h.Ticker)
			continue
		}
		held := h.Quantity.Exact()
		unit := Unit(held)
		c := &curve{h: h, pr: pr, fees: o.Fees, unit: unit, n: held.Div(unit).IntPart(), memo: map[int64]int64{}}
		if c.n < 1 {
			c.n = 1
		}
		c.provisional = o.Provisional != nil && (o.Provisional(pr.pounds().Currency) || o.Fees != nil && o.Provisional(o.Fees.pounds().Currency))
		if err := p.narrow(c); err != nil {
			return nil, err
		}
		whole, err := p.gainOn(c.txns, c.base, c.sale(c.n))
		if err != nil {
			if cerr := p.context().Err(); cerr != nil {
				return nil, cerr
			}
			hp.Unsellable = append(hp.Unsellable, h.Ticker)
			continue
		}
		if whole.Sign() == 0 && p.NonReporting(h.Ticker) {
			hp.Offshore = append(hp.Offshore, h.Ticker)
		}
		if whole.Sign() != dir {
			continue
		}
		c.memo[c.n] = pence(whole.Mul(decimal.NewFromInt(int64(dir))))
		s.evals++
		out = append(out, c)
	}
	// larger holdings first: the bound prunes more when the big choices are made early
	order.HotStable(out, func(a, b *curve) int {
		return cmp.Compare(b.memo[b.n], a.memo[a.n])
	})
	return out, nil
}

// narrow gives the curve the holding's own transactions (its sub-ledger, see own) and their
// year's net gain.
func (p *Planner) narrow(c *curve) error {
	c.txns = p.own(c.h.Ticker)
	rep, err := engine.Calculate(c.txns, p.Opts)
	if err != nil {
		return err
	}
	c.base = rep.Year(p.Year).NetGain.Exact()
	return nil
}

// declaration reports a line that declares something about securities or accounts.
func declaration(a model.Action) bool {
	switch a {
	case model.AccountDecl, model.Alias, model.Exempt, model.NonReporting:
		return true
	}
	return false
}

// solution is a choice of units per curve and its total towards the aim (pence).
type solution struct {
	curves []*curve
	ks     []int64
	total  int64
}

// solve is the branch and bound: the combination with the largest total not above slack.
func (s *search) solve(cs []*curve, slack int64) solution {
	m := len(cs)
	rest := make([]int64, m+1) // the most the curves from i on can add
	for i := m - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + max(0, cs[i].memo[cs[i].n])
	}
	best := solution{curves: cs, ks: make([]int64, m)}
	ks := make([]int64, m)
	var walk func(i int, cur int64)
	walk = func(i int, cur int64) {
		if cur > best.total {
			best.total = cur
			copy(best.ks, ks)
		}
		if best.total == slack || i == m || cur+rest[i] <= best.total || s.stop() {
			return
		}
		c := cs[i]
		top := s.fit(c, slack-cur)
		if i == m-1 {
			if top > 0 {
				ks[i] = top
				walk(m, cur+s.at(c, top))
				ks[i] = 0
			}
			return
		}
		for k := top; k >= 1; k-- {
			v := s.at(c, k)
			if v == infeasible || cur+v > slack {
				continue
			}
			if cur+v+rest[i+1] <= best.total || s.stop() {
				break
			}
			ks[i] = k
			walk(i+1, cur+v)
			ks[i] = 0
			if best.total == slack {
				return
			}
		}
		walk(i+1, cur)
	}
	walk(0, 0)
	return best
}

// fit is the most units of a curve whose gain is at most room: a guess from the gain per unit
// of the whole holding, then a bisection (the gain grows with the units sold).
func (s *search) fit(c *curve, room int64) int64 {
	if room <= 0 {
		return 0
	}
	if v := s.at(c, c.n); v <= room {
		return c.n
	}
	lo, hi := int64(0), c.n // at(lo) <= room < at(hi)
	if per := c.memo[c.n] / c.n; per > 0 {
		if g := room / per; g > lo && g < hi {
			if s.at(c, g) <= room {
				lo = g
				if g+1 < hi && s.at(c, g+1) > room {
					hi = g + 1
				}
			} else {
				hi = g
			}
		}
	}
	for hi-lo > 1 && !s.stop() {
		mid := lo + (hi-lo)/2
		if s.at(c, mid) <= room {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// finish turns the solution into sales checked with the whole ledger: the year after them all,
// each sale's gain alone, and whether one more unit passes the aim.
func (p *Planner) finish(hp Harvest, best solution, s *search, slack int64, dir int) (Harvest, error) {
	fits := func(ty engine.TaxYear) bool {
		n := ty.NetGain.Exact()
		if dir > 0 {
			return n.LessThanOrEqual(hp.Aim)
		}
		return n.GreaterThanOrEqual(hp.Aim)
	}
	var sales []Sale
	var idx []int
	for i, k := range best.ks {
		if k > 0 {
			sales = append(sales, best.curves[i].sale(k))
			idx = append(idx, i)
		}
	}
	_, after, err := p.Run(sales)
	if err != nil {
		return hp, err
	}
	// Sales of securities linked by a takeover need not add up: take units off until they fit.
	for tries := 0; !fits(after) && len(sales) > 0 && tries < 50; tries++ {
		hp.Coupled = true
		j := len(sales) - 1
		c := best.curves[idx[j]]
		best.ks[idx[j]]--
		if best.ks[idx[j]] == 0 {
			sales, idx = sales[:j], idx[:j]
		} else {
			sales[j] = c.sale(best.ks[idx[j]])
		}
		if _, after, err = p.Run(sales); err != nil {
			return hp, err
		}
	}
	hp.After = after
	total := pence(after.NetGain.Exact().Sub(p.BaseTY.NetGain.Exact()).Mul(decimal.NewFromInt(int64(dir))))
	// Each sale's gain alone, and one unit more, from its own sub-ledger (the search's figures).
	for i, sl := range sales {
		c, k := best.curves[idx[i]], best.ks[idx[i]]
		v := s.at(c, k)
		held := c.h.Quantity.Exact()
		ch := Chosen{Sale: sl, Held: held, Gain: model.NewMoney(decimal.New(v*int64(dir), -2)), Whole: sl.Quantity.Equal(held)}
		if !ch.Whole {
			more := s.at(c, k+1)
			exceeds := more == infeasible || total-v+more > slack
			ch.OneMore = &exceeds
		}
		if c.provisional {
			hp.Provisional = append(hp.Provisional, c.h.Ticker)
		}
		hp.Sales = append(hp.Sales, ch)
	}
	return hp, s.err()
}

// Notes say what the search left out or could not do, in the user's words.
func (h Harvest) Notes(o HarvestOptions) []string {
	var notes []string
	if len(h.Unpriced) > 0 {
		notes = append(notes, "no price given for "+strings.Join(h.Unpriced, ", ")+": not considered.")
	}
	if len(h.Unsellable) > 0 {
		notes = append(notes, strings.Join(h.Unsellable, ", ")+": a sale on the date fails with the ledger's later transactions: not considered.")
	}
	if len(h.Offshore) > 0 {
		notes = append(notes, strings.Join(h.Offshore, ", ")+" (non-reporting funds): a sale realises an offshore income gain, taxed as income; it does not use the exempt amount: not considered.")
	}
	if h.Bounded {
		notes = append(notes, fmt.Sprintf("the search for the closest combination stopped at its time bound after %d sales worked out: the sales shown are the closest found, maybe not the closest there is; fewer holdings (only=) make it exhaustive.", h.Evaluations))
	}
	if h.KnownOnly && h.KnownShortBy.Sign() == 0 {
		notes = append(notes, "exchange rates for the plan's month are not published yet: the plan uses only holdings whose value in pounds is known, which reach as far.")
	} else if h.KnownOnly {
		notes = append(notes, fmt.Sprintf("exchange rates for the plan's month are not published yet: the plan uses only holdings whose value in pounds is known; holdings priced in other currencies would come £%s closer, less than their rate could move (name them in only= to use them).", h.KnownShortBy.StringFixed(2)))
	} else if len(h.Provisional) > 0 {
		notes = append(notes, fmt.Sprintf("%s: priced in a currency whose rate for the plan's month is not published yet, so the gain in pounds will move; a margin (margin=) keeps the plan under the target.", strings.Join(h.Provisional, ", ")))
	}
	for _, t := range append(append([]string{}, o.Only...), o.Exclude...) {
		if _, ok := o.Prices[t]; !ok {
			notes = append(notes, fmt.Sprintf("only/exclude names %s, which has no price: it changes nothing.", t))
		}
	}
	return notes
}

// String describes the search for a note.
func (hp Harvest) String() string {
	return fmt.Sprintf("%s towards %s: %d sales, %d evaluations", hp.Direction, hp.Aim, len(hp.Sales), hp.Evaluations)
}
