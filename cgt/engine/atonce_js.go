package engine

// yearsAndNotes sets the report's tax years and returns its notes, one after the other (see
// atonce.go).
func (c *calc) yearsAndNotes(opts Options, rep *Report, disposals []Disposal) notes {
	rep.TaxYears, rep.LossesCarriedForward = taxYears(c.results, disposals, opts.LossesBroughtForward)
	return c.notes(opts.Today, rep.NoGainNoLoss)
}

// totalYears totals each year (totalYear) in turn.
func totalYears(builds []*yearBuild, _ int) []TaxYear {
	out := make([]TaxYear, len(builds))
	for k := range builds {
		out[k] = totalYear(builds[k])
	}
	return out
}
