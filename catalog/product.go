package catalog

import "github.com/cgt-tools/cgt/internal/version"

// Version is the version of the published contract (tools.json, openapi.json) and of cgt: the
// release this source tree builds (internal/version).
const Version = version.Release

// Product is the product-level part of cgt's own catalog: what cgt is, the rules an agent must
// keep when it reports cgt's figures, and the multi-step tasks it can follow. Every front end
// that publishes a catalog builds it with Build(reg, Product()).
func Product() Info {
	return Info{
		Name:    "cgt",
		Version: Version,
		Description: "UK Capital Gains Tax on shares and funds. cgt reads a ledger of trades, " +
			"identifies each disposal with the shares it is matched against (same day, the next 30 days, " +
			"then the Section 104 pool, as TCGA 1992 requires), converts foreign amounts at HMRC's monthly " +
			"rates and reports per tax year the figures a Self Assessment return needs (SA108: number of " +
			"disposals, disposal proceeds, allowable costs, gains, losses). It computes; it is not tax advice.",
		TrustPolicy: TrustPolicy(),
		Playbooks:   Playbooks(),
	}
}

// TrustPolicy is the set of rules an agent keeps when it passes cgt's results to a person.
func TrustPolicy() map[string]any {
	return map[string]any{
		"summary": "Report cgt's figures as cgt gives them, each with its source; never fill a gap with a guess.",
		"cite": []any{
			"The statutory reference for each rule applied: same_day is TCGA 1992 s105(1), bed_and_breakfast is s106A(5), section_104 is s104 (HMRC manual CG51560 onwards).",
			"The ledger line (file:line, the src of a record) each transaction or disposal comes from.",
			"The tax year (for example 2024/25) each figure belongs to, and for 2024/25 whether it falls before or after 30 October 2024.",
			"The HMRC monthly exchange-rate period (YYYY-MM) and rate for every amount converted from a foreign currency.",
		},
		"missing_data": "Never invent a transaction, price, fee, date or exchange rate. When cgt reports a sale of more shares than held, a missing rate or a missing disposal, say what is missing and ask the person for it.",
		"failures":     "Surface ok=false results as they are: quote error.code, error.message and error.hint, and the line in error.context. Do not retry with altered data to make an error go away.",
		"warnings":     "Pass every warning on to the person; warnings are never noise.",
		"money":        "Money is GBP, as decimal strings with two decimal places; quantities and rates are exact decimal strings. Never convert them to floating point or round them again.",
		"scope":        "cgt covers shares and funds held outside ISAs and pensions, for disposals from 6 April 2008. It does not decide residence, reliefs or the rate band a person falls in; it is not tax advice.",
	}
}

// Playbooks are the multi-step tasks published for agents; their steps name registered
// commands in backticks.
func Playbooks() []Playbook {
	return []Playbook{
		{
			Task: "Prepare the SA108 figures for a tax year",
			When: "A person is filling in the capital gains pages (SA108) of a Self Assessment return.",
			Steps: []string{
				"Run `taxyear.info` for the year to get its dates, annual exempt amount and the rates in force.",
				"Run `transactions.parse` on the ledger and confirm the transaction count and the earliest and latest dates with the person.",
				"Run `report.calculate` on the whole ledger (earlier years matter: the Section 104 pool is built from every earlier purchase).",
				"From data.tax_years, take the entry whose period is the year: disposal_count, proceeds, allowable_costs, gains, losses, net_gain. Quote them as given.",
				"For any disposal the person questions, run `matching.explain` with its date and ticker.",
				"Give each figure with its tax year, and each disposal with its ledger line.",
			},
			FailureModes: []string{
				"parse_error: quote error.context.line and error.message; ask the person to correct that line.",
				"validation_error for a sale of more shares than held: a purchase, transfer in or split is missing from the ledger; ask for it, never add one.",
				"validation_error for a disposal before 6 April 2008: outside cgt's scope; say so.",
				"fx_rate_unavailable: no HMRC rate for that month in cgt's bundled table. If HMRC has published it, ask the person for HMRC's monthly XML file and pass it in rates (error.hint says where to download it); otherwise ask which rate to use. Never pick one.",
			},
		},
		{
			Task: "Explain a surprising gain",
			When: "A gain or loss on one disposal is larger, smaller or of a different sign than the person expected.",
			Steps: []string{
				"Run `report.calculate` and find the disposal (date and ticker) in data.tax_years[].disposals.",
				"Run `matching.explain` with that date and ticker: it shows which acquisitions were matched, under which rule (same_day, bed_and_breakfast, section_104), with the arithmetic.",
				"If the trade was in a foreign currency, run `fx.rate` for its currency and month to show the rate HMRC publishes.",
				"Run `holdings.list` at the day before the disposal to show the Section 104 pool it drew on.",
				"Explain the result from these figures, citing the rule and the ledger lines.",
			},
			FailureModes: []string{
				"not_found: no disposal of that ticker on that date; error.context lists the disposals that exist.",
				"A 30-day (bed_and_breakfast) match is often the surprise: the repurchase fixes the cost, not the pool average.",
			},
		},
		{
			Task: "Check a foreign-currency trade",
			When: "A trade was priced in a currency other than GBP and the person wants to see how it was converted.",
			Steps: []string{
				"Run `transactions.parse` to see the trade as cgt reads it: date, price, fees and currency.",
				"Run `fx.rate` with the currency, year and month of the trade date.",
				"The GBP amount is the foreign amount divided by the rate; compare with the disposal or acquisition in `matching.explain` or `report.calculate`.",
			},
			FailureModes: []string{
				"fx_rate_unavailable: HMRC has no rate for that month in cgt's table; error.context names the nearest months. Ask the person for HMRC's monthly XML file for that month and pass it in rates; do not interpolate.",
				"A daily or broker rate differs from HMRC's monthly rate; cgt uses the monthly rate. Say so rather than changing it.",
			},
		},
		{
			Task: "Reconcile holdings with a broker statement",
			When: "A person wants to confirm that the ledger matches what a broker says they hold.",
			Steps: []string{
				"Run `holdings.list` at the statement date.",
				"Compare each ticker's quantity with the statement; list differences without adjusting anything.",
				"For a difference, run `transactions.parse` and look for missing purchases, sales, splits or transfers for that ticker.",
				"After the person adds what was missing, run `holdings.list` and then `report.calculate` again.",
			},
			FailureModes: []string{
				"A quantity off by a ratio usually means a missing SPLIT or UNSPLIT line.",
				"Never edit the ledger to fit the statement: report the difference and ask.",
			},
		},
	}
}
