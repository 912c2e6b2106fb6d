package engine

import (
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestSecurityIdentity(t *testing.T) {
	t.Run("alias_makes_one_pool_named_by_the_first_ticker", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-01", model.Alias, "VWRL", newTicker("VWRL.L")),
			tx("2024-01-02", model.Buy, "VWRL", q("10"), at("100")),
			tx("2024-01-03", model.Buy, "vwrl.l", q("10"), at("110")),
			tx("2024-06-01", model.Sell, "VWRL.L", q("20"), at("120")))
		if len(rep.Pools) != 1 || rep.Pools[0].Ticker != "VWRL" {
			t.Fatalf("pools %+v, want one named VWRL", rep.Pools)
		}
		d := disposals(rep)[0]
		if d.Ticker != "VWRL" {
			t.Errorf("disposal ticker %s", d.Ticker)
		}
		wantMoney(t, "cost", d.AllowableCost, "2100.00")
		wantWarning(t, rep, "VWRL and VWRL.L", "one security", "names it VWRL")
	})
	t.Run("alias_shares_the_30_day_rule", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-01", model.Alias, "A", newTicker("A2")),
			tx("2024-01-02", model.Buy, "A", q("10"), at("100")),
			tx("2024-06-01", model.Sell, "A", q("10"), at("120")),
			tx("2024-06-10", model.Buy, "A2", q("10"), at("90")))
		d := disposals(rep)[0]
		if d.Rules[0] != RuleBedAndBreakfast {
			t.Errorf("rules %v, want the 30-day rule across the two tickers", d.Rules)
		}
	})
	t.Run("same_isin_makes_one_pool_with_a_warning", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "VUSA", q("10"), at("50"), isin("IE00B3XXRP09")),
			tx("2024-01-03", model.Buy, "VUSA.L", q("10"), at("70"), isin("IE00B3XXRP09")),
			tx("2024-06-01", model.Sell, "VUSA", q("20"), at("80")))
		if len(rep.Pools) != 1 || rep.Pools[0].Ticker != "VUSA" {
			t.Fatalf("pools %+v, want one named VUSA (the first traded)", rep.Pools)
		}
		wantMoney(t, "cost", disposals(rep)[0].AllowableCost, "1200.00")
		wantWarning(t, rep, "VUSA and VUSA.L", "IE00B3XXRP09", "names it VUSA")
	})
	t.Run("different_isins_stay_apart", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "A", q("10"), at("50"), isin("GB0000000001")),
			tx("2024-01-03", model.Buy, "B", q("10"), at("70"), isin("GB0000000002")))
		if len(rep.Pools) != 2 || len(rep.Warnings) != 0 {
			t.Errorf("pools %d warnings %q", len(rep.Pools), rep.Warnings)
		}
	})
}

func TestAccounts(t *testing.T) {
	t.Run("isa_transactions_are_excluded_and_listed", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2020-01-01", model.AccountDecl, "MYISA", kind("ISA")),
			tx("2024-01-02", model.Buy, "ABC", q("10"), at("100"), account("MyIsa")),
			tx("2024-06-01", model.Sell, "ABC", q("10"), at("500"), account("MyIsa")))
		if len(disposals(rep)) != 0 || len(rep.Pools) != 0 {
			t.Fatalf("an ISA sale was counted: %+v", rep.TaxYears)
		}
		if len(rep.Excluded) != 2 || rep.Excluded[1].Action != "SELL" || rep.Excluded[1].Account != "MyIsa" ||
			rep.Excluded[1].Type != "ISA" || rep.Excluded[1].Source.Line != 3 {
			t.Errorf("excluded %+v", rep.Excluded)
		}
	})
	t.Run("bed_and_isa_has_no_30_day_match", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2020-01-01", model.AccountDecl, "ISA1", kind("ISA")),
			tx("2020-01-01", model.AccountDecl, "GIA", kind("GIA")),
			tx("2023-01-02", model.Buy, "ABC", q("100"), at("10"), account("GIA")),
			tx("2024-06-01", model.Sell, "ABC", q("100"), at("15"), account("GIA")),
			tx("2024-06-01", model.Buy, "ABC", q("100"), at("15.05"), account("ISA1")))
		d := disposals(rep)[0]
		if len(d.Rules) != 1 || d.Rules[0] != RuleSection104 {
			t.Errorf("rules %v, want section_104 only", d.Rules)
		}
		wantMoney(t, "gain", d.Gain, "500.00")
	})
	t.Run("undeclared_accounts_are_taxable", func(t *testing.T) {
		rep := mustCalc(t, Options{},
			tx("2024-01-02", model.Buy, "ABC", q("10"), at("100"), account("somewhere")),
			tx("2024-06-01", model.Sell, "ABC", q("10"), at("110"), account("somewhere")))
		wantMoney(t, "gain", disposals(rep)[0].Gain, "100.00")
	})
	t.Run("unknown_account_type_is_an_error", func(t *testing.T) {
		err := calcErr(t, tx("2020-01-01", model.AccountDecl, "X", kind("PENSION")))
		wantError(t, err, model.CodeValidation, 1, "PENSION", "ISA")
	})
}

func TestExemptAndNonReporting(t *testing.T) {
	rep := mustCalc(t, Options{},
		tx("2020-01-01", model.Exempt, "TR30"),
		tx("2020-01-01", model.NonReporting, "SPY"),
		tx("2024-01-02", model.Buy, "TR30", q("1000"), at("0.95")),
		tx("2024-06-01", model.Sell, "TR30", q("1000"), at("0.99")),
		tx("2024-01-02", model.Buy, "SPY", q("10"), at("400")),
		tx("2024-06-01", model.Sell, "SPY", q("10"), at("450")),
		tx("2024-01-02", model.Buy, "ABC", q("10"), at("10")),
		tx("2024-06-01", model.Sell, "ABC", q("10"), at("11")))
	ds := disposals(rep)
	if len(ds) != 1 || ds[0].Ticker != "ABC" {
		t.Fatalf("disposals in the totals %+v, want ABC only", ds)
	}
	y := rep.TaxYears[0]
	if y.DisposalCount != 1 {
		t.Errorf("disposal count %d", y.DisposalCount)
	}
	wantMoney(t, "gains", y.Gains, "10.00")
	wantMoney(t, "proceeds", y.Proceeds, "110.00")
	if len(rep.ExemptDisposals) != 1 || rep.ExemptDisposals[0].Ticker != "TR30" || rep.ExemptDisposals[0].Reference != RefExempt {
		t.Errorf("exempt %+v", rep.ExemptDisposals)
	}
	if len(rep.OffshoreIncomeGains) != 1 || rep.OffshoreIncomeGains[0].Ticker != "SPY" {
		t.Fatalf("offshore income gains %+v", rep.OffshoreIncomeGains)
	}
	wantMoney(t, "offshore income gain", rep.OffshoreIncomeGains[0].Gain, "500.00")
}
