package plan

import (
	"github.com/cgt-tools/cgt/cgt/engine"
	"github.com/cgt-tools/cgt/cgt/model"
)

// Window is a recent sale whose 30-day window is still open.
type Window struct {
	Ticker    string        `json:"ticker" record:"entity" jsonschema_description:"Security sold."`
	SaleDate  model.Date    `json:"sale_date" record:"timestamp" jsonschema_description:"Day of the sale."`
	Quantity  model.Decimal `json:"quantity" jsonschema_description:"Shares sold."`
	Until     model.Date    `json:"until" jsonschema_description:"A purchase up to this day is matched with the sale."`
	SafeRebuy model.Date    `json:"first_safe_rebuy" jsonschema_description:"First day a purchase is not."`
}

// OpenWindows lists the sales in the 30 days up to d whose window reaches past d: a purchase
// from d+1 to until would be matched with them.
func OpenWindows(rep *engine.Report, d model.Date) []Window {
	out := []Window{}
	for _, ty := range rep.TaxYears {
		if ty.EndDate < d.AddDays(-31) || ty.StartDate > d {
			continue
		}
		for _, ds := range ty.Disposals {
			until, safe := engine.ThirtyDayWindow(ds.Date)
			if ds.Date > d || until < d || ds.Kind != "" {
				continue
			}
			out = append(out, Window{Ticker: ds.Ticker, SaleDate: ds.Date, Quantity: ds.Quantity, Until: until, SafeRebuy: safe})
		}
	}
	return out
}
