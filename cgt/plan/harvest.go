package plan

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Harvest is the set of sales a harvest chose.
type Harvest struct {
	Direction string // gains, losses or none
	Sales     []Chosen
	After     engine.TaxYear
	Unpriced  []string // holdings without a price, not considered
}

// Chosen is one sale of a harvest.
type Chosen struct {
	Sale
	Held    decimal.Decimal // shares held on the date
	Gain    model.Money     // the change in the year's net gain when this sale alone is appended
	Whole   bool            // the whole holding is sold
	OneMore *bool           // for a part sale: one more unit would pass the target
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

// Harvest chooses the sales: holdings are taken largest gain (or loss) first; each is sold in
// full when that stays within the target, else in the largest number of whole shares that
// does (found by bisection, every step run through the engine), and the next holdings fill what
// is left. Each partial sale is then checked: one more share passes the target.
func (p *Planner) Harvest(prices map[string]Price, target decimal.Decimal) (Harvest, error) {
	var hp Harvest
	net := p.BaseTY.NetGain.Exact()
	dir := 0
	switch {
	case net.LessThan(target):
		dir, hp.Direction = 1, "gains"
	case net.GreaterThan(target):
		dir, hp.Direction = -1, "losses"
	default:
		hp.Direction, hp.After = "none", p.BaseTY
		return hp, nil
	}
	fits := func(ty engine.TaxYear) bool {
		n := ty.NetGain.Exact()
		if dir > 0 {
			return n.LessThanOrEqual(target)
		}
		return n.GreaterThanOrEqual(target)
	}
	type candidate struct {
		h    engine.Holding
		pr   Price
		full decimal.Decimal
	}
	var cands []candidate
	for _, h := range p.Holdings() {
		pr, ok := prices[strings.ToUpper(h.Ticker)]
		if !ok {
			hp.Unpriced = append(hp.Unpriced, h.Ticker)
			continue
		}
		g, err := p.FullSaleGain(h, pr)
		if err != nil {
			return hp, err
		}
		if g.Exact().Sign() == dir {
			cands = append(cands, candidate{h, pr, g.Exact()})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].full.Abs().GreaterThan(cands[j].full.Abs()) })
	var chosen []Sale
	cur := p.BaseTY
	with := func(s Sale) (engine.TaxYear, error) {
		_, ty, err := p.Run(append(append([]Sale{}, chosen...), s))
		return ty, err
	}
	for _, c := range cands {
		if cur.NetGain.Exact().Equal(target) {
			break
		}
		held := c.h.Quantity.Exact()
		unit := Unit(held)
		steps := held.Div(unit).IntPart()
		mk := func(k int64) Sale {
			q := held
			if k < steps {
				q = unit.Mul(decimal.NewFromInt(k))
			}
			return Sale{Ticker: c.h.Ticker, Quantity: q, Price: c.pr}
		}
		one, err := with(mk(1))
		if err != nil {
			return hp, err
		}
		if !fits(one) {
			continue
		}
		full, err := with(mk(steps))
		if err != nil {
			return hp, err
		}
		k, best := steps, full
		if !fits(full) {
			lo, hi, loTY := int64(1), steps, one
			// A first guess from the full sale's gain per share (exact for a pool alone), tried
			// with the engine and its neighbour; the bisection then has little or nothing left.
			slack := target.Sub(cur.NetGain.Exact()).Abs()
			if perShare := c.full.Abs().Div(decimal.NewFromInt(steps)); perShare.Sign() > 0 {
				if guess := slack.Div(perShare).IntPart(); guess > lo && guess < hi {
					ty, err := with(mk(guess))
					if err != nil {
						return hp, err
					}
					if fits(ty) {
						lo, loTY = guess, ty
						if guess+1 < hi {
							next, err := with(mk(guess + 1))
							if err != nil {
								return hp, err
							}
							if fits(next) {
								lo, loTY = guess+1, next
							} else {
								hi = guess + 1
							}
						}
					} else {
						hi = guess
					}
				}
			}
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				ty, err := with(mk(mid))
				if err != nil {
					return hp, err
				}
				if fits(ty) {
					lo, loTY = mid, ty
				} else {
					hi = mid
				}
			}
			k, best = lo, loTY
		}
		chosen = append(chosen, mk(k))
		cur = best
	}
	hp.After = cur
	for i, s := range chosen {
		held, _ := p.HeldAt(s.Ticker)
		_, alone, err := p.Run([]Sale{s})
		if err != nil {
			return hp, err
		}
		c := Chosen{Sale: s, Held: held.Quantity.Exact(), Gain: Delta(alone.NetGain, p.BaseTY.NetGain), Whole: s.Quantity.Equal(held.Quantity.Exact())}
		if !c.Whole {
			more := append([]Sale{}, chosen...)
			more[i].Quantity = s.Quantity.Add(Unit(held.Quantity.Exact()))
			_, ty, err := p.Run(more)
			if err != nil {
				return hp, err
			}
			exceeds := !fits(ty)
			c.OneMore = &exceeds
		}
		hp.Sales = append(hp.Sales, c)
	}
	return hp, nil
}
