package tax

import (
	"strconv"

	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/taxyear"
	"github.com/shopspring/decimal"
)

// Box is one box of the SA108 capital gains summary pages with the figure to enter.
type Box struct {
	_ model.NotComparable

	Box   string `json:"box" jsonschema_description:"Box number on the year's SA108 form; empty when the number on that year's form is not confirmed"`
	Label string `json:"label" jsonschema_description:"The box's label on the form"`
	Value string `json:"value" jsonschema_description:"The figure to enter: a count, whole pounds (proceeds and gains rounded down, costs and losses rounded up), or pounds and pence for box 51"`
}

// Figures are a tax year's listed-share figures at pence, for its SA108 boxes.
type Figures struct {
	Disposals            int
	Proceeds, Costs      decimal.Decimal
	Gains, Losses        decimal.Decimal
	LossesUsed           decimal.Decimal // brought-forward losses used in the year
	LossesCarriedForward decimal.Decimal
	Adjustment           *decimal.Decimal // 2024/25 box 51; nil when it needs the taxpayer's income
}

// layoutFrom is the first tax year whose SA108 box numbers are given: the layout of the 2020/21
// form (SA108 2021) onward, with listed shares and securities in boxes 23 to 30. Earlier
// forms numbered the boxes differently and their numbers are not confirmed.
const layoutFrom = 2020

// Boxes lists the year's SA108 boxes for listed shares and securities, and the losses boxes,
// with the figures rounded to whole pounds in the taxpayer's favour, and a note on the form.
func Boxes(y taxyear.Year, f Figures) ([]Box, string) {
	known := y.Start >= layoutFrom
	num := func(n string) string {
		if known {
			return n
		}
		return ""
	}
	boxes := []Box{
		{Box: num("23"), Label: "Number of disposals", Value: strconv.Itoa(f.Disposals)},
		{Box: num("24"), Label: "Disposal proceeds", Value: pounds(f.Proceeds, false)},
		{Box: num("25"), Label: "Allowable costs (including purchase price)", Value: pounds(f.Costs, true)},
		{Box: num("26"), Label: "Gains in the year, before losses", Value: pounds(f.Gains, false)},
		{Box: num("27"), Label: "Losses in the year", Value: pounds(f.Losses, true)},
		{Box: num("45"), Label: "Losses brought forward and used in the year", Value: pounds(f.LossesUsed, true)},
		{Box: num("47"), Label: "Losses available to be carried forward to later years", Value: pounds(f.LossesCarriedForward, true)},
	}
	note := "Listed shares and securities, and losses, on the SA108 for " + y.Period() + " (the " + formName(y) + " form). Whole pounds: proceeds and gains rounded down, costs and every loss (boxes 27, 45 and 47) rounded up, in the taxpayer's favour, so a loss is the same whole pounds in every box and year."
	if !known {
		note += " The box numbers of forms before 2020/21 are not confirmed, so box is left empty: enter the figures against the labels."
	}
	if y.Start == 2024 {
		v := ""
		if f.Adjustment != nil {
			v = model.NewMoney(*f.Adjustment).String()
		}
		boxes = append(boxes, Box{Box: "51", Label: "Adjustment to Capital Gains Tax", Value: v})
		note += " Box 51 is in pounds and pence: the extra tax on gains from 30 October 2024 at 18% and 24%, which the return's own calculation charges at 10% and 20%; explain it in box 54 (any other information)."
		if f.Adjustment == nil {
			note += " It depends on the taxpayer's income: pass taxable_income to have it."
		}
	}
	return boxes, note
}

// formName is how HMRC names the year's form: SA108 2025 is for 2024/25.
func formName(y taxyear.Year) string { return "SA108 " + strconv.Itoa(y.Start+1) }

// pounds writes a non-negative amount in whole pounds, rounded up or down.
func pounds(d decimal.Decimal, up bool) string {
	if up {
		return d.RoundCeil(0).StringFixed(0)
	}
	return d.RoundFloor(0).StringFixed(0)
}
