package tax

import (
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// IncomeTaxOn is the income tax on extra income (an offshore income gain, SI 2009/3001 reg 17)
// taxed on top of the taxable income given: at the basic rate within the basic rate band, the
// higher rate up to the higher rate limit and the additional rate above it (ITA 2007 s6, s10;
// the rates of England, Wales and Northern Ireland for income other than savings and
// dividends), each band's tax rounded down to the penny. The Gift Aid and pension extension
// widens both limits (ITA 2007 s414(2), FA 2004 s192(4)).
func IncomeTaxOn(y taxyear.Year, in Income, extra decimal.Decimal) decimal.Decimal {
	if extra.Sign() <= 0 {
		return decimal.Zero
	}
	basic := y.BasicRateLimit().Add(in.BandExtension)
	higher := HigherRateLimit(y).Add(in.BandExtension)
	from, to := in.TaxableIncome, in.TaxableIncome.Add(extra)
	part := func(lo, hi decimal.Decimal) decimal.Decimal {
		a, b := decimal.Max(from, lo), decimal.Min(to, hi)
		return decimal.Max(decimal.Zero, b.Sub(a))
	}
	huge := decimal.New(1, 30)
	tax := part(decimal.Zero, basic).Mul(decimal.RequireFromString("0.20")).RoundDown(2)
	tax = tax.Add(part(basic, higher).Mul(decimal.RequireFromString("0.40")).RoundDown(2))
	return tax.Add(part(higher, huge).Mul(decimal.RequireFromString("0.45")).RoundDown(2))
}

// HigherRateLimit is the taxable income above which income is charged at the additional rate
// (ITA 2007 s10(5)): £150,000 to 2022/23, £125,140 from 2023/24.
func HigherRateLimit(y taxyear.Year) decimal.Decimal {
	if y.Start >= 2023 {
		return decimal.NewFromInt(125140)
	}
	return decimal.NewFromInt(150000)
}
