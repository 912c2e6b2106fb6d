package engine

import (
	"github.com/cgt-tools/cgt/cgt/model"
	"github.com/cgt-tools/cgt/cgt/tax"
	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// Match rule names, as they appear in Match.Rule and Disposal.Rules.
const (
	RuleSameDay         = "same_day"
	RuleBedAndBreakfast = "bed_and_breakfast"
	RuleSection104      = "section_104"
)

// Statutory references of the match rules (TCGA 1992).
const (
	RefSameDay         = "TCGA92/S105(1)(b)"
	RefBedAndBreakfast = "TCGA92/S106A(5)"
	RefSection104      = "TCGA92/S104"
)

// Pool event kinds, as they appear in PoolEvent.Event.
const (
	EventBuy          = "buy"
	EventSell         = "sell"
	EventSplit        = "split"
	EventUnsplit      = "unsplit"
	EventCapReturn    = "capreturn"
	EventAccumulation = "accumulation"
	// The events of a reorganisation, a transfer or an opening holding (events.go).
	EventPool         = "pool"          // an opening Section 104 holding (POOL)
	EventSpouseIn     = "spouse_in"     // shares from a spouse or civil partner at their cost (s58)
	EventSpouseOut    = "spouse_out"    // shares to a spouse or civil partner: no gain, no loss (s58)
	EventRights       = "rights"        // a rights issue or open offer taken up (s126–s128)
	EventTakeover     = "takeover"      // shares given or received in a share exchange (s127, s135)
	EventTakeoverCash = "takeover_cash" // small cash on a takeover, deducted from cost (s122(2), CG57836)
	EventPartDisposal = "part_disposal" // the cost of a part disposal (s122, s42)
	EventDemerger     = "demerger"      // cost passed from the parent to the demerged shares (s192, s130)
	EventERI          = "eri"           // excess reportable income added to cost (SI 2009/3001 reg 94, 99)
	EventNegligible   = "negligible"    // a negligible value claim: deemed sale and reacquisition at the value claimed (s24(2))
)

// Disposal kinds other than a sale, as they appear in Disposal.Kind.
const (
	KindCapitalDistribution = "capital_distribution" // a CAPRETURN or takeover cash that is not small
	KindSpouseTransfer      = "spouse_transfer"      // SPOUSEOUT: no gain, no loss
	KindNegligible          = "negligible_value"     // NEGLIGIBLE: a negligible value claim's deemed sale (s24(2))
)

// RulePartDisposal is the rule of a part disposal's only match: the cost of the part disposed
// of is the pool's cost × A ÷ (A + B).
const RulePartDisposal = "part_disposal"

// Statutory references of the events.
const (
	RefPartDisposal   = "TCGA92/S42"
	RefCapitalDist    = "TCGA92/S122"
	RefTakeoverCash   = "TCGA92/S128(3)"
	RefSpouse         = "TCGA92/S58"
	RefRights         = "TCGA92/S126-S128"
	RefTakeover       = "TCGA92/S127, S135"
	RefDemerger       = "TCGA92/S192, S127-S130"
	RefPool           = "TCGA92/S104"
	RefRebasing       = "TCGA92/S35"
	RefERI            = "SI2009/3001/R94"
	RefERIAfterSale   = "SI2009/3001/R99(5)"
	RefExempt         = "TCGA92/S115"
	RefOffshoreIncome = "SI2009/3001/R17"
	RefOffshoreLoss   = "SI2009/3001/R42"
	RefNegligible     = "TCGA92/S24(2)"
)

// Report is the whole result of a calculation: tax years with their disposals, the holdings
// left at the end and the history of every Section 104 pool.
type Report struct {
	TaxYears []TaxYear     `json:"tax_years" jsonschema_description:"One entry per tax year with a disposal or a dividend, in date order" record:"rows=tax_year"`
	Holdings []Holding     `json:"holdings" jsonschema_description:"Section 104 pools still holding shares after the last transaction, by ticker" record:"rows=holding"`
	Pools    []PoolHistory `json:"pools" jsonschema_description:"History of each ticker's Section 104 pool, by ticker" record:"rows=pool"`
	// LossesBroughtForward echoes Options.LossesBroughtForward.
	LossesBroughtForward model.Money `json:"losses_brought_forward" jsonschema_description:"Allowable losses brought forward from years before the first tax year of the ledger (GBP)"`
	// LossesCarriedForward is what is left after the last tax year.
	LossesCarriedForward model.Money `json:"losses_carried_forward" jsonschema_description:"Allowable losses left to carry forward after the last tax year of the report (GBP)"`
	// Excluded lists the transactions made in a tax wrapper (ISA, LISA, JISA, SIPP).
	Excluded []ExcludedTransaction `json:"excluded,omitempty" jsonschema_description:"Transactions in accounts declared ISA, LISA, JISA or SIPP: outside CGT, never counted or matched" record:"rows=excluded"`
	// ExemptDisposals are disposals of securities declared EXEMPT (gilts, qualifying corporate bonds).
	ExemptDisposals []Disposal `json:"exempt_disposals,omitempty" jsonschema_description:"Disposals of securities declared EXEMPT (gilts and qualifying corporate bonds, TCGA92 s115): no chargeable gain or allowable loss, outside every total" record:"rows=exempt_disposal"`
	// OffshoreIncomeGains are disposals of non-reporting offshore funds.
	OffshoreIncomeGains []Disposal `json:"offshore_income_gains,omitempty" jsonschema_description:"Disposals of securities declared NONREPORTING (non-reporting offshore funds): offshore income gains, charged to income tax (SA106), outside the CGT totals" record:"rows=offshore_income_gain"`
	// ExcessIncome lists the excess reportable income of offshore reporting funds applied:
	// the bundled figures (by ISIN) and the ledger's ERI lines.
	ExcessIncome []ExcessIncome `json:"eri,omitempty" jsonschema_description:"Excess reportable income of offshore reporting funds applied: each bundled figure (fund, ISIN, period, per unit, units, rate, pounds) and each ERI line" record:"rows=eri"`
	// NoGainNoLoss are transfers to a spouse or civil partner.
	NoGainNoLoss []Disposal `json:"no_gain_no_loss,omitempty" jsonschema_description:"Transfers to a spouse or civil partner (TCGA92 s58): no gain and no loss, outside the totals" record:"rows=no_gain_no_loss"`
	// SecurityNames gives the broker's name of each security whose ticker an import made up
	// from that name (Hargreaves Lansdown names securities only in words), for the reports to
	// show beside the ticker.
	SecurityNames map[string]string `json:"security_names,omitempty" jsonschema_description:"The broker's name of each security whose ticker was made from its name (an export that names securities only in words), by ticker" record:"-"`
	// Warnings are things the user should check that did not stop the calculation (two
	// tickers pooled as one security, a corporate action given twice, ...). Front ends put
	// them in the envelope's warnings.
	Warnings []string `json:"-" record:"-"`
	// Pending, set with Options.DeferLaterRates, names the rows dated after the last month of
	// rates available and what the report leaves out because of them; nil when none.
	Pending *RatesPending `json:"-" record:"-"`
}

// TaxYear holds the figures of one UK tax year (6 April to 5 April).
type TaxYear struct {
	Period               string             `json:"period" jsonschema_description:"Tax year as YYYY/YY, e.g. 2024/25" record:"period"`
	StartDate            model.Date         `json:"start_date" jsonschema_description:"First day of the tax year (6 April)"`
	EndDate              model.Date         `json:"end_date" jsonschema_description:"Last day of the tax year (5 April)"`
	DisposalCount        int                `json:"disposal_count" jsonschema_description:"Number of disposals; each ticker's same-day disposals count once"`
	Proceeds             model.Money        `json:"proceeds" jsonschema_description:"Sum of the disposals' rounded gross proceeds before sale fees (GBP)"`
	AllowableCosts       model.Money        `json:"allowable_costs" jsonschema_description:"Sum of the disposals' rounded allowable costs: identified cost plus sale fees (GBP)"`
	Gains                model.Money        `json:"gains" jsonschema_description:"Sum of the rounded gains of disposals whose gain is zero or more (GBP)"`
	Losses               model.Money        `json:"losses" jsonschema_description:"Sum of the rounded losses of disposals with a loss, as a positive figure (GBP)"`
	NetGain              model.Money        `json:"net_gain" jsonschema_description:"gains minus losses; negative for a net loss (GBP)"`
	AnnualExemptAmount   model.Money        `json:"annual_exempt_amount" jsonschema_description:"Annual exempt amount of the tax year for an individual (GBP)"`
	LossesBroughtForward model.Money        `json:"losses_brought_forward" jsonschema_description:"Allowable losses available from earlier years at the start of the year (GBP)"`
	LossesUsed           model.Money        `json:"losses_used" jsonschema_description:"Brought-forward losses set against this year's net gain; they reduce it no lower than the annual exempt amount (GBP)"`
	LossesCarriedForward model.Money        `json:"losses_carried_forward" jsonschema_description:"Losses left to carry to later years: brought forward minus used plus this year's net loss (GBP)"`
	TaxableGain          model.Money        `json:"taxable_gain" jsonschema_description:"Net gain less losses used less the annual exempt amount, not below zero (GBP)"`
	RatePeriods          []RatePeriodResult `json:"rate_periods" jsonschema_description:"The year's parts with one set of CGT rates, with the disposals falling in each part" record:"rows=rate_period"`
	SA108                SA108              `json:"sa108" jsonschema_description:"Figures for the listed shares and securities section of the SA108 capital gains pages"`
	Tax                  *tax.Payable       `json:"tax" jsonschema:"nullable" jsonschema_description:"Capital Gains Tax payable on the year's gains, when taxable_income was given; null otherwise" record:"rows=tax"`
	Dividends            Dividends          `json:"dividends" jsonschema_description:"Dividend income received in the year"`
	Income               []IncomeBox        `json:"income,omitempty" jsonschema_description:"The year's dividends and fund income as the return asks for them: form, box, amount, tax taken off, and the lines they come from" record:"rows=income"`
	Disposals            []Disposal         `json:"disposals" jsonschema_description:"The year's disposals in date order then ticker" record:"rows=disposal"`
}

// RatePeriodResult is the part of a tax year over which one pair of CGT rates applied, with
// the disposals made in it (2024/25 has two: before and from 30 October 2024).
type RatePeriodResult struct {
	_ model.NotComparable

	taxyear.RatePart
	DisposalCount int         `json:"disposal_count" jsonschema_description:"Number of disposals in the part"`
	Proceeds      model.Money `json:"proceeds" jsonschema_description:"Sum of the rounded gross proceeds of the disposals in the part (GBP)"`
	Gains         model.Money `json:"gains" jsonschema_description:"Sum of the rounded gains of the part's disposals with a gain (GBP)"`
	Losses        model.Money `json:"losses" jsonschema_description:"Sum of the rounded losses of the part's disposals with a loss, positive (GBP)"`
	NetGain       model.Money `json:"net_gain" jsonschema_description:"gains minus losses of the part (GBP)"`
}

// SA108 holds the figures the SA108 pages ask for about listed shares and securities.
type SA108 struct {
	NumberOfDisposals int          `json:"number_of_disposals" jsonschema_description:"Number of disposals"`
	DisposalProceeds  model.Money  `json:"disposal_proceeds" jsonschema_description:"Disposal proceeds (GBP)"`
	AllowableCosts    model.Money  `json:"allowable_costs" jsonschema_description:"Allowable costs, including the purchase price (GBP)"`
	GainsBeforeLosses model.Money  `json:"gains_before_losses" jsonschema_description:"Gains in the year, before losses (GBP)"`
	LossesInYear      model.Money  `json:"losses_in_year" jsonschema_description:"Losses in the year (GBP)"`
	Adjustment        *model.Money `json:"adjustment" jsonschema:"nullable" jsonschema_description:"2024/25 box 51, adjustment to Capital Gains Tax: the tax at the rates in force on each disposal's date minus the tax the return works out at the rates before 30 October 2024 (GBP); 0.00 in other years; null for 2024/25 when it depends on taxable_income and that was not given"`
	Boxes             []tax.Box    `json:"boxes" jsonschema_description:"The year's SA108 boxes for listed shares and securities and for losses, with the figures to enter in whole pounds"`
	BoxesNote         string       `json:"boxes_note" jsonschema_description:"Which form the boxes are from and how the figures are rounded"`
}

// Dividends is the dividend income of a tax year, in GBP.
type Dividends struct {
	_ model.NotComparable

	Count         int         `json:"count" jsonschema_description:"Number of DIVIDEND rows in the year"`
	Income        model.Money `json:"income" jsonschema_description:"Cash dividends received (GBP)"`
	TaxPaid       model.Money `json:"tax_paid" jsonschema_description:"Tax withheld on the cash dividends (GBP)"`
	Accumulations model.Money `json:"accumulations" jsonschema_description:"Notional distributions from ACCUMULATION rows: income for tax and added to the cost of the holding (GBP)"`
	// The cash dividends split as the return splits them: UK dividends (SA100) and foreign
	// dividends with the foreign tax withheld (SA106, for foreign tax credit relief).
	UKIncome       model.Money `json:"uk_income" jsonschema_description:"Cash dividends from UK companies and funds (GBP): paid in pounds, with a GB ISIN or none"`
	ForeignIncome  model.Money `json:"foreign_income" jsonschema_description:"Cash dividends from abroad (GBP): paid in another currency, or with an ISIN of another country"`
	ForeignTaxPaid model.Money `json:"foreign_tax_paid" jsonschema_description:"Tax withheld abroad on the foreign dividends (GBP)"`
	// ERI is the excess reportable income of offshore reporting funds whose fund distribution
	// date falls in the year: income of the year though no cash is paid (reg 94).
	ERI model.Money `json:"eri" jsonschema_description:"Excess reportable income of offshore reporting funds treated as received in the year (GBP): foreign income with no tax taken off"`
}

// Disposal is one disposal of a ticker on one date (all same-day disposals merged), with how
// it was identified against acquisitions.
type Disposal struct {
	Date           model.Date    `json:"date" jsonschema_description:"Date of disposal" record:"timestamp"`
	Ticker         string        `json:"ticker" jsonschema_description:"Ticker, upper-case" record:"entity"`
	Quantity       model.Decimal `json:"quantity" jsonschema_description:"Number of shares disposed of on the date"`
	Proceeds       model.Money   `json:"proceeds" jsonschema_description:"Gross proceeds, quantity times price, before sale fees (GBP)"`
	SaleFees       model.Money   `json:"sale_fees" jsonschema_description:"Incidental costs of the disposal (GBP)"`
	IdentifiedCost model.Money   `json:"identified_cost" jsonschema_description:"Cost of the shares identified with the disposal, without sale fees (GBP)"`
	AllowableCost  model.Money   `json:"allowable_cost" jsonschema_description:"Allowable cost: identified cost plus sale fees plus any adjustments (GBP)"`
	Gain           model.Money   `json:"gain" jsonschema_description:"Proceeds minus allowable cost; negative for a loss (GBP)"`
	Rules          []string      `json:"rules" jsonschema_description:"Identification rules used in the order applied: same_day, bed_and_breakfast, section_104; part_disposal for a capital distribution"`
	Kind           string        `json:"kind,omitempty" jsonschema_description:"Absent for a sale; capital_distribution (a CAPRETURN or takeover cash treated as a part disposal), spouse_transfer, or negligible_value (the deemed sale of a negligible value claim)"`
	Reference      string        `json:"reference,omitempty" jsonschema_description:"Statutory reference of a disposal that is not a sale, e.g. TCGA92/S122"`
	Adjustments    []Adjustment  `json:"adjustments,omitempty" jsonschema_description:"Amounts added to the allowable cost after the identification, e.g. excess reportable income received after the disposal (SI2009/3001/R99(5))"`
	Source         SourceRef     `json:"source" jsonschema_description:"First ledger line of the disposal" record:"source"`
	Sources        []SourceRef   `json:"sources" jsonschema_description:"Every ledger line merged into the disposal" record:"-"`
	Original       []TradeLine   `json:"original,omitempty" jsonschema_description:"The ledger lines in their original currency, present when any was not GBP" record:"rows=original"`
	Matches        []Match       `json:"matches" jsonschema_description:"How the disposal was identified, one entry per rule (and per acquisition date for the 30-day rule)" record:"rows=match"`
}

// Match is one leg of a disposal's identification: the shares matched under one rule (and,
// for the 30-day rule, with one acquisition date).
type Match struct {
	Rule                string         `json:"rule" jsonschema_description:"same_day, bed_and_breakfast or section_104"`
	Reference           string         `json:"reference" jsonschema_description:"Statutory reference of the rule, e.g. TCGA92/S104"`
	Quantity            model.Decimal  `json:"quantity" jsonschema_description:"Shares of the disposal matched by this leg"`
	AcquisitionDate     *model.Date    `json:"acquisition_date,omitempty" jsonschema_description:"Date of the matched acquisition (same_day and bed_and_breakfast)"`
	AcquisitionQuantity *model.Decimal `json:"acquisition_quantity,omitempty" jsonschema_description:"Shares of the acquisition used, in its own units; differs from quantity when a split or consolidation fell in between"`
	Proceeds            model.Money    `json:"proceeds" jsonschema_description:"Share of the gross proceeds (GBP)"`
	SaleFees            model.Money    `json:"sale_fees" jsonschema_description:"Share of the sale fees (GBP)"`
	Cost                model.Money    `json:"cost" jsonschema_description:"Identified cost of the matched shares, without sale fees (GBP)"`
	Gain                model.Money    `json:"gain" jsonschema_description:"proceeds minus sale fees minus cost (GBP)"`
	PoolBefore          *PoolState     `json:"pool_before,omitempty" jsonschema_description:"Section 104 pool before the disposal (section_104 legs)"`
	PoolAfter           *PoolState     `json:"pool_after,omitempty" jsonschema_description:"Section 104 pool after the disposal (section_104 legs)"`
	AverageCost         *model.Decimal `json:"average_cost,omitempty" jsonschema_description:"Pool cost per share before the disposal, 6 decimal places (section_104 legs)"`
	Steps               []string       `json:"steps" jsonschema_description:"The cost arithmetic as readable lines" record:"prose"`
	Sources             []SourceRef    `json:"sources,omitempty" jsonschema_description:"Ledger lines of the matched acquisitions (same_day and bed_and_breakfast)"`

	// Steps are written on demand (see Explain) from the match, its disposal's figures and,
	// for the same_day and bed_and_breakfast rules, the acquisition's (recipe).
	disposal *Disposal
	recipe   *stepRecipe
}

// Adjustment is an amount added to a disposal's allowable cost after it was identified.
type Adjustment struct {
	_ model.NotComparable

	Reason    string      `json:"reason" jsonschema_description:"What the amount is"`
	Reference string      `json:"reference" jsonschema_description:"Statutory reference"`
	Cost      model.Money `json:"cost" jsonschema_description:"Amount added to the allowable cost (GBP)"`
	Source    SourceRef   `json:"source" jsonschema_description:"The ledger line behind it" record:"source"`
}

// PoolState is a Section 104 pool at one moment.
type PoolState struct {
	Quantity model.Decimal `json:"quantity" jsonschema_description:"Shares in the pool"`
	Cost     model.Money   `json:"cost" jsonschema_description:"Pool cost (GBP)"`
}

// SourceRef points at a ledger line (file and 1-based line) or a JSON array element (index).
type SourceRef struct {
	File  string `json:"file,omitempty" jsonschema_description:"Ledger file, when the input came from a file"`
	Line  int    `json:"line,omitempty" jsonschema_description:"1-based ledger line"`
	Index *int   `json:"index,omitempty" jsonschema_description:"0-based position in a JSON transaction array"`
}

// TradeLine is one ledger line of a disposal in its original currency.
type TradeLine struct {
	_ model.NotComparable

	Quantity      model.Decimal `json:"quantity" jsonschema_description:"Shares sold on the line"`
	Price         Converted     `json:"price" jsonschema_description:"Price per share"`
	Consideration Converted     `json:"consideration" jsonschema_description:"Quantity times price: the gross proceeds of the line, converted as one amount"`
	Fees          Converted     `json:"fees" jsonschema_description:"Sale fees of the line"`
	Source        SourceRef     `json:"source" jsonschema_description:"The ledger line" record:"source"`
}

// Converted is an amount as the ledger gave it and in GBP, with the rate used.
type Converted struct {
	_ model.NotComparable

	GBP        model.Money    `json:"gbp" jsonschema_description:"The amount in GBP: amount divided by rate, 6 decimal places (shown at 2)"`
	Amount     model.Decimal  `json:"amount" jsonschema_description:"The amount as given in the ledger"`
	Currency   string         `json:"currency" jsonschema_description:"ISO 4217 currency of the amount"`
	Rate       *model.Decimal `json:"rate,omitempty" jsonschema_description:"HMRC monthly rate used: units of currency per GBP 1"`
	RatePeriod string         `json:"rate_period,omitempty" jsonschema_description:"Month of the HMRC rate, YYYY-MM"`
}

// Holding is a Section 104 pool at a point in time.
type Holding struct {
	_ model.NotComparable

	Ticker      string        `json:"ticker" jsonschema_description:"Ticker" record:"entity"`
	Quantity    model.Decimal `json:"quantity" jsonschema_description:"Shares in the pool"`
	Cost        model.Money   `json:"cost" jsonschema_description:"Pool cost (GBP)"`
	AverageCost model.Decimal `json:"average_cost" jsonschema_description:"Cost per share, 6 decimal places (GBP)"`
}

// PoolHistory is every change to one ticker's Section 104 pool, in date order.
type PoolHistory struct {
	Ticker string      `json:"ticker" jsonschema_description:"Ticker" record:"entity"`
	Events []PoolEvent `json:"events" jsonschema_description:"Pool changes in date order" record:"rows=pool_event"`
}

// PoolEvent is one change to a Section 104 pool.
type PoolEvent struct {
	_ model.NotComparable

	Date           model.Date    `json:"date" jsonschema_description:"Date of the change" record:"timestamp"`
	Event          string        `json:"event" jsonschema_description:"buy, sell, split, unsplit, capreturn, accumulation, pool, spouse_in, spouse_out, rights, takeover, takeover_cash, part_disposal, demerger, eri or negligible"`
	Reference      string        `json:"reference,omitempty" jsonschema_description:"Statutory reference of an event other than a trade, split, accumulation or cost-reducing capital return"`
	QuantityChange model.Decimal `json:"quantity_change" jsonschema_description:"Change in pooled shares (negative for a sale or consolidation)"`
	CostChange     model.Money   `json:"cost_change" jsonschema_description:"Change in pool cost (GBP; negative for a sale or capital return)"`
	Quantity       model.Decimal `json:"quantity" jsonschema_description:"Shares in the pool after the change"`
	Cost           model.Money   `json:"cost" jsonschema_description:"Pool cost after the change (GBP)"`
	Source         SourceRef     `json:"source" jsonschema_description:"First ledger line behind the change" record:"source"`
}
