package dsl

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/model"
)

// valueRule is what a number on a ledger line may be.
type valueRule int

const (
	positive     valueRule = iota // > 0: BUY/SELL quantity and price, DIVIDEND/CAPRETURN total
	nonNegative                   // >= 0: fees, tax, ACCUMULATION quantity and total
	wholeRatio                    // > 0 and whole: UNSPLIT ratio
	ratioRule                     // > 0: SPLIT ratio
	fractionRule                  // > 0 and < 1: DEMERGER fraction of cost
)

// checkValue applies a rule to a number; it returns an empty message when the value is fine.
func checkValue(field string, v model.Decimal, rule valueRule, action model.Action) (msg, hint string) {
	if v.Sign() > 0 && rule != wholeRatio && rule != fractionRule {
		return "", ""
	}
	d := v.Exact()
	switch rule {
	case positive:
		if d.Sign() <= 0 {
			return fmt.Sprintf("amounts must be positive: %s is %s", field, exactString(d)),
				positiveHint(field, action)
		}
	case nonNegative:
		if d.Sign() < 0 {
			return fmt.Sprintf("%s cannot be negative, found %s", field, exactString(d)),
				fmt.Sprintf("write %s as a number of 0 or more, without a sign", field)
		}
	case fractionRule:
		if d.Sign() <= 0 || d.Cmp(decimal.New(1, 0)) >= 0 {
			return fmt.Sprintf("the fraction of cost must be between 0 and 1, found %s", exactString(d)),
				"write the part of the parent's cost that moves to the new shares as a fraction greater than 0 and less than 1, such as 0.25 for 25%"
		}
	case ratioRule, wholeRatio:
		if d.Sign() <= 0 {
			return fmt.Sprintf("ratio must be greater than zero, found %s", exactString(d)),
				"write the ratio as a positive number: SPLIT NVDA RATIO 10 means every share became 10"
		}
		if rule == wholeRatio && !d.IsInteger() {
			return fmt.Sprintf("a consolidation ratio must be a whole number, found %s", exactString(d)),
				"UNSPLIT T RATIO R means every R shares became 1; a fractional consolidation cannot be expressed, so check the corporate action (a 3-for-2 split is SPLIT T RATIO 1.5)"
		}
	}
	return "", ""
}

func positiveHint(field string, action model.Action) string {
	switch {
	case field == "quantity" && action == model.Buy:
		return "write the number of shares bought, greater than zero"
	case field == "quantity" && action == model.Sell:
		return "write the number of shares sold as a positive number: SELL already means a disposal"
	case field == "price":
		return "write the price per share, greater than zero, in the currency that follows it"
	}
	return fmt.Sprintf("write %s as a number greater than zero", field)
}

// priceRule is positive for a BUY and non-negative for a SELL: a disposal for nothing (shares
// given away or sold for nil consideration) is a real disposal that realises a loss.
func priceRule(a model.Action) valueRule {
	if a == model.Sell {
		return nonNegative
	}
	return positive
}
