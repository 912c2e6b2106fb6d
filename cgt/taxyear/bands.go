package taxyear

import (
	"github.com/shopspring/decimal"
)

// incomeTaxTable is HMRC's table of income tax rates and bands, which gives every basic rate
// limit below.
const incomeTaxTable = "HMRC, Income Tax rates and allowances for current and past years (https://www.gov.uk/government/publications/rates-and-allowances-income-tax/income-tax-rates-and-allowances-current-and-past)"

// basicRateLimits is the UK basic rate limit (ITA 2007 s10) for each tax year from 2008/09, in
// pounds. CGT uses the UK figure for every
// taxpayer: Scottish and Welsh income tax bands do not apply to capital gains (TCGA 1992 s1I
// and s1J refer to the basic rate limit of ITA 2007 s10).
var basicRateLimits = map[int]int64{
	2008: 34800, 2009: 37400, 2010: 37400, 2011: 35000, 2012: 34370, 2013: 32010,
	2014: 31865, 2015: 31785, 2016: 32000, 2017: 33500, 2018: 34500, 2019: 37500,
	2020: 37500, 2021: 37700, 2022: 37700, 2023: 37700, 2024: 37700, 2025: 37700,
	2026: 37700,
}

// BasicRateLimit is the UK basic rate limit for the year in pounds: the width of the band of
// taxable income charged at the basic rate, before any extension for Gift Aid or pension
// contributions. A year after LastKnown carries LastKnown's figure; a year before 2008/09
// has zero.
func (y Year) BasicRateLimit() decimal.Decimal {
	if !y.InScope() {
		return decimal.Zero
	}
	start := min(y.Start, LastKnown)
	return decimal.NewFromInt(basicRateLimits[start])
}

// BasicRateLimitReference cites where the year's basic rate limit comes from.
func (y Year) BasicRateLimitReference() string {
	if !y.InScope() {
		return ""
	}
	return "Income Tax Act 2007 s10 (the basic rate limit, UK figure, used for Capital Gains Tax by every taxpayer including Scottish taxpayers: TCGA 1992 s1I, s1J; s4 before 2019/20); " + incomeTaxTable
}

// proceedsThreshold is the disposal proceeds above which gains must be reported from
// 2023/24, even when no tax is due.
const proceedsThreshold = 50000

// ReportingThreshold is the amount of disposal proceeds in the year above which a person
// must report the disposals (complete the SA108 pages) even without a taxable gain: £50,000
// from 2023/24, four times the annual exempt amount before.
func (y Year) ReportingThreshold() decimal.Decimal {
	if !y.InScope() {
		return decimal.Zero
	}
	if y.Start >= 2023 {
		return decimal.NewFromInt(proceedsThreshold)
	}
	return y.AnnualExemptAmount().Mul(decimal.NewFromInt(4))
}
