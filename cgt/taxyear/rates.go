package taxyear

import (
	"fmt"
	"strings"
	"time"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/shopspring/decimal"
)

// govUK is HMRC's published table of rates and allowances, which confirms every figure here.
const govUK = "HMRC, Capital Gains Tax rates and allowances (https://www.gov.uk/government/publications/rates-and-allowances-capital-gains-tax)"

// RatePeriod is a span of days over which the rates on gains from shares did not change.
// Rates are fractions: 0.18 means 18%. Basic applies to gains within the unused basic rate
// band, Higher to the rest; before 23 June 2010 both are the single 18% rate.
type RatePeriod struct {
	_ model.NotComparable

	From      model.Date
	To        model.Date // inclusive
	Basic     decimal.Decimal
	Higher    decimal.Decimal
	Reference string // the statute that set the rates, and HMRC's published table
}

// RatePart is a rate period as results report it (report.calculate's tax years and
// taxyear.info both): the one published form of "these rates applied from this day to that".
type RatePart struct {
	_ model.NotComparable

	From      model.Date    `json:"from" record:"timestamp" jsonschema_description:"First day the rates apply."`
	To        model.Date    `json:"to" jsonschema_description:"Last day the rates apply."`
	Basic     model.Decimal `json:"basic_rate" jsonschema_description:"CGT rate on gains within the basic rate band, as a fraction (0.18 = 18%)."`
	Higher    model.Decimal `json:"higher_rate" jsonschema_description:"CGT rate on gains above the basic rate band, as a fraction."`
	Reference string        `json:"reference" jsonschema_description:"Legislation setting the rates."`
}

// Part is the period in its reported form.
func (p RatePeriod) Part() RatePart {
	return RatePart{From: p.From, To: p.To, Basic: model.NewDecimal(p.Basic), Higher: model.NewDecimal(p.Higher), Reference: p.Reference}
}

// Contains reports whether d falls within the period.
func (p RatePeriod) Contains(d model.Date) bool { return d >= p.From && d <= p.To }

// ratePeriods is every change of rate since 6 April 2008, in order; the last runs on.
var ratePeriods = []struct {
	from          model.Date
	basic, higher string
	reference     string
}{
	{ScopeStart, "0.18", "0.18",
		"Finance Act 2008 s8 and Sch 2: a single rate of 18% from 6 April 2008 (TCGA 1992 s4); " + govUK},
	{model.NewDate(2010, time.June, 23), "0.18", "0.28",
		"Finance (No. 2) Act 2010 s2 and Sch 1: 28% on gains above the basic rate band from 23 June 2010 (TCGA 1992 s4); " + govUK},
	{model.NewDate(2016, time.April, 6), "0.10", "0.20",
		"Finance Act 2016 s83: 10% and 20% from 6 April 2016 (TCGA 1992 s4, later s1H); " + govUK},
	{model.NewDate(2024, time.October, 30), "0.18", "0.24",
		"Finance Act 2025 s7 and Sch 1: 18% and 24% for disposals on or after 30 October 2024 (TCGA 1992 s1H(3)); " + govUK},
}

// RatePeriods returns the rates in force over the year, one entry per span with the same
// rates, covering 6 April to 5 April. 2010/11 and 2024/25 have two. It is nil for a year
// before 2008/09.
func (y Year) RatePeriods() []RatePeriod {
	if !y.InScope() {
		return nil
	}
	start, end := y.StartDate(), y.EndDate()
	var out []RatePeriod
	for i, r := range ratePeriods {
		to := end
		if i+1 < len(ratePeriods) {
			to = min(end, ratePeriods[i+1].from-1)
		}
		from := max(start, r.from)
		if from > to {
			continue
		}
		out = append(out, RatePeriod{
			From: from, To: to,
			Basic: decimal.RequireFromString(r.basic), Higher: decimal.RequireFromString(r.higher),
			Reference: r.reference,
		})
	}
	return out
}

// RatesOn returns the rates in force on d; ok is false before 6 April 2008.
func RatesOn(d model.Date) (RatePeriod, bool) {
	for _, p := range For(d).RatePeriods() {
		if p.Contains(d) {
			return p, true
		}
	}
	return RatePeriod{}, false
}

// describe summarises rate periods: "10%/20% to 29 October 2024, 18%/24% from 30 October 2024".
func describe(ps []RatePeriod) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		rates := percent(p.Basic) + "/" + percent(p.Higher)
		if p.Basic.Equal(p.Higher) {
			rates = percent(p.Basic) + " flat"
		}
		switch i {
		case 0:
			parts[i] = fmt.Sprintf("%s to %s", rates, longDate(p.To))
		default:
			parts[i] = fmt.Sprintf("%s from %s", rates, longDate(p.From))
		}
	}
	return strings.Join(parts, ", ")
}

func percent(d decimal.Decimal) string { return d.Shift(2).String() + "%" }

func longDate(d model.Date) string { return d.Time().Format("2 January 2006") }

// allowance is an annual exempt amount and the first tax year it applies to.
type allowance struct {
	from      int
	amount    int64
	reference string
}

// allowances lists each change of the annual exempt amount; an amount holds until the next.
var allowances = []allowance{
	{2008, 9600, "TCGA 1992 s3, as set for 2008/09; " + govUK},
	{2009, 10100, "TCGA 1992 s3, as set for 2009/10 and kept for 2010/11; " + govUK},
	{2011, 10600, "TCGA 1992 s3, as set for 2011/12 and kept for 2012/13; " + govUK},
	{2013, 10900, "TCGA 1992 s3, as set for 2013/14; " + govUK},
	{2014, 11000, "TCGA 1992 s3, as set for 2014/15; " + govUK},
	{2015, 11100, "TCGA 1992 s3, as set for 2015/16 and kept for 2016/17; " + govUK},
	{2017, 11300, "TCGA 1992 s3, as set for 2017/18; " + govUK},
	{2018, 11700, "TCGA 1992 s3, as set for 2018/19; " + govUK},
	{2019, 12000, "TCGA 1992 s1K, as set for 2019/20; " + govUK},
	{2020, 12300, "TCGA 1992 s1K, as set for 2020/21 and frozen by Finance Act 2021; " + govUK},
	{2023, 6000, "TCGA 1992 s1K as amended by Finance Act 2023: £6,000 for 2023/24; " + govUK},
	{2024, 3000, "TCGA 1992 s1K as amended by Finance Act 2023: £3,000 for 2024/25 and later years; " + govUK},
}
