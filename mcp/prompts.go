package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The prompts a client offers its user as ready-made tasks. Each is a short plan naming the
// tools to call, in the tools' own names; a planning tool the server does not serve is not
// named, and the plan uses the report and holdings instead.

const (
	promptSA108    = "prepare_sa108"
	promptTaxFree  = "sell_tax_free"
	planAllowance  = "plan_allowance"
	planHarvest    = "plan_harvest"
	ledgerAskFirst = "Use the ledgers and broker exports listed as resources (pass them in path; broker exports need no conversion first), or ask the user for their ledger and pass it in cgt_content."
)

// addPrompts registers the prompts, written for the tools the server has.
func addPrompts(s *server.MCPServer, tools []Tool) {
	has := func(name string) bool {
		return slices.ContainsFunc(tools, func(t Tool) bool { return t.Name == name })
	}
	s.AddPrompt(mcpgo.NewPrompt(promptSA108,
		mcpgo.WithPromptTitle("Prepare my SA108 for a tax year"),
		mcpgo.WithPromptDescription("The figures for the capital gains pages (SA108) of a tax year's return, box by box, with the tax due."),
		mcpgo.WithArgument("year", mcpgo.ArgumentDescription(`Tax year: its start year (2024 for 2024/25) or "2024/25".`), mcpgo.RequiredArgument()),
		mcpgo.WithArgument("taxable_income", mcpgo.ArgumentDescription("Income after allowances (GBP), for the tax due and box 51; optional.")),
	), func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		return promptResult("Prepare the SA108 for a tax year", sa108Text(req.Params.Arguments)), nil
	})
	s.AddPrompt(mcpgo.NewPrompt(promptTaxFree,
		mcpgo.WithPromptTitle("What can I sell tax-free this year"),
		mcpgo.WithPromptDescription("How much gain this tax year's annual exempt amount still covers, and which holdings to sell to use it."),
		mcpgo.WithArgument("prices", mcpgo.ArgumentDescription(`Current prices, e.g. "AAPL=190.50 USD,VWRL=98.2"; optional.`)),
		mcpgo.WithArgument("year", mcpgo.ArgumentDescription("Tax year; default the current one.")),
	), func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		return promptResult("What can I sell tax-free this year", taxFreeText(req.Params.Arguments, has(planAllowance), has(planHarvest))), nil
	})
}

func promptResult(description, text string) *mcpgo.GetPromptResult {
	return mcpgo.NewGetPromptResult(description, []mcpgo.PromptMessage{
		mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent(text)),
	})
}

func sa108Text(args map[string]string) string {
	year := strings.TrimSpace(args["year"])
	if year == "" {
		year = "the tax year I name"
	}
	call := fmt.Sprintf(`{"year":%q`, year)
	income := strings.TrimSpace(args["taxable_income"])
	if income != "" {
		call += fmt.Sprintf(`,"taxable_income":%q`, income)
	}
	call += `,"path":[...]}`
	var b strings.Builder
	fmt.Fprintf(&b, "Prepare the capital gains pages (SA108) of my Self Assessment return for %s.\n\n", year)
	b.WriteString("1. " + ledgerAskFirst + "\n")
	fmt.Fprintf(&b, "2. Call calculate_report with %s. ", call)
	if income == "" {
		b.WriteString("Ask for my taxable income (income after allowances) if the tax due or box 51 is wanted, and pass it as taxable_income. ")
	}
	b.WriteString("\n3. Give me, box by box, the figures to enter: sa108.box23 (number of disposals), box24 (proceeds), box25 (allowable costs), box26 (gains before losses), box27 (losses), box45 (losses brought forward used), box47 (losses to carry forward), and for 2024/25 box51 (the adjustment for gains from 30 October 2024, in pounds and pence, explained in box 54 with the gains before and after that date). Then the taxable gain and the tax due.\n")
	b.WriteString("4. Pass on every warning| line: each is about my figures. Say which disposals these come from if I ask (detail \"disposals\"), and how any one was matched with explain_matching.\n")
	b.WriteString("Figures are in pounds; the boxes are whole pounds rounded in my favour. Do not add figures of your own.")
	return b.String()
}

func taxFreeText(args map[string]string, allowance, harvest bool) string {
	prices := strings.TrimSpace(args["prices"])
	year := strings.TrimSpace(args["year"])
	var b strings.Builder
	b.WriteString("What can I sell this tax year without paying Capital Gains Tax?\n\n")
	b.WriteString("1. " + ledgerAskFirst + "\n")
	if prices == "" {
		b.WriteString("2. Ask me for the current price of each holding I might sell (cgt fetches no prices).\n")
	} else {
		fmt.Fprintf(&b, "2. The prices are %s.\n", prices)
	}
	yearArg := ""
	if year != "" {
		yearArg = fmt.Sprintf(`"year":%q,`, year)
	}
	if allowance {
		fmt.Fprintf(&b, "3. Call %s with {%s\"prices\":...,\"path\":[...]}: the annual exempt amount left this year, the losses available, each holding's unrealised gain, and the 30-day windows still open.\n", planAllowance, yearArg)
	} else {
		fmt.Fprintf(&b, "3. Call calculate_report with {%s\"path\":[...]} for this year's net gain so far and the annual exempt amount (left = exempt amount - net gain), and list_holdings for each holding's quantity and cost; the unrealised gain is quantity × price - cost.\n", yearArg)
	}
	if harvest {
		fmt.Fprintf(&b, "4. Call %s with the prices for which holdings to sell, and how many shares, to realise gains up to what is left (target_gain for another figure; a negative one to harvest losses).\n", planHarvest)
	} else {
		b.WriteString("4. Work out from the pools' average cost how many shares of each holding realise gains up to what is left, and check a sale by adding its line to the ledger and calling calculate_report again.\n")
	}
	b.WriteString("5. Warn me: buying the same shares back within 30 days (bed and breakfast) matches the sale with the new purchase and undoes the plan; a purchase in an ISA or by a spouse does not. Say the first safe date to buy back outside an ISA (the 31st day after the sale). This is a projection, not advice.")
	return b.String()
}
