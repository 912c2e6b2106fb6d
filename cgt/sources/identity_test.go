package sources

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/cgt-tools/cgt/cgt/dsl"
	"github.com/cgt-tools/cgt/cgt/imports"
	"github.com/cgt-tools/cgt/cgt/model"
)

// permutations calls f with every order of n items.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(slices.Clone(p))
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// brokerExport is an export with the given broker account on every row.
func brokerExport(file, broker, account string, txns ...model.Transaction) Source {
	for i := range txns {
		txns[i].Account = account
		txns[i].Source = model.Source{File: file, Line: i + 2, Index: -1}
	}
	return Source{File: file, Import: &imports.Import{Report: imports.Report{File: file, Broker: broker, Rows: len(txns), Imported: len(txns)},
		Transactions: txns}}
}

func buy(date string, qty int64, ref string) model.Transaction {
	d, _ := model.ParseDate(date)
	return model.Transaction{Date: d, Action: model.Buy, Ticker: "VUSA", Quantity: model.NewDecimal(decimal.NewFromInt(qty)),
		Price: model.Amount{Value: model.NewDecimal(decimal.NewFromInt(50)), Currency: "GBP"}, BrokerRef: ref}
}

// t212NoRef is t212 with no broker reference: every row identified by its content.
var t212NoRef = strings.Replace(t212, "EOF1", "", 1)

func TestIdentityRulesInEveryOrder(t *testing.T) {
	isaRows := "2024-01-05 BUY VUSA 10 @ 50 GBP\n2024-02-05 BUY VUSA 10 @ 50 GBP\n"
	cases := []struct {
		name     string
		sources  func(t *testing.T) []Source
		accounts []AccountRule
		buys     int
		kept     []string // files whose lines are kept, in any order (each once)
		warn     []string // substrings every order's warnings have
	}{
		{name: "same_export_twice_counts_once", buys: 3,
			sources: func(t *testing.T) []Source {
				return []Source{export(t, "a.csv", t212NoRef, imports.Options{}), export(t, "b.csv", t212NoRef, imports.Options{})}
			}, kept: []string{"a.csv"}, warn: []string{"identical rows of two trading212 exports of the same account"}},
		{name: "gia_beside_declared_isa_both_counted", buys: 6,
			sources: func(t *testing.T) []Source {
				return []Source{export(t, "isa.csv", t212NoRef, imports.Options{}), export(t, "gia.csv", t212NoRef, imports.Options{})}
			}, accounts: []AccountRule{{Glob: "isa.csv", Label: "MYISA", Type: "ISA", From: "accounts"}},
			kept: []string{"isa.csv", "gia.csv"}, warn: []string{"different accounts", "MYISA"}},
		{name: "empty_account_is_its_own_account", buys: 6,
			sources: func(t *testing.T) []Source {
				return []Source{export(t, "a.csv", t212NoRef, imports.Options{}), export(t, "b.csv", t212NoRef, imports.Options{Account: "B"})}
			}, kept: []string{"a.csv", "b.csv"}, warn: []string{"different accounts"}},
		{name: "two_hand_ledgers_same_line_two_trades", buys: 4,
			sources: func(t *testing.T) []Source {
				return []Source{ledger(t, "a.cgt", isaRows), ledger(t, "b.cgt", isaRows)}
			}, kept: []string{"a.cgt", "b.cgt"}, warn: []string{"a.cgt:1 and b.cgt:1 read alike", "add REF fp-"}},
		{name: "hand_line_beside_export_both_counted", buys: 4,
			sources: func(t *testing.T) []Source {
				return []Source{ledger(t, "hand.cgt", "2024-03-04 BUY NVDA 5 TOTAL 3365.10 GBP\n"), export(t, "t212.csv", t212, imports.Options{})}
			}, kept: []string{"hand.cgt", "t212.csv"}, warn: []string{"add REF EOF1 to hand.cgt:1"}},
		{name: "corrected_date_counted_once_ledger_wins", buys: 3,
			sources: func(t *testing.T) []Source {
				return []Source{ledger(t, "fix.cgt", "2024-03-06 BUY NVDA 5 TOTAL 3365.10 GBP REF EOF1\n"), export(t, "t212.csv", t212, imports.Options{})}
			}, kept: []string{"fix.cgt", "t212.csv"}, warn: []string{"have the same reference EOF1: one trade, counted once as fix.cgt:1 (a ledger line corrects an export row)"}},
		{name: "same_ref_two_exports_two_figures_first_by_name", buys: 1,
			sources: func(t *testing.T) []Source {
				return []Source{brokerExport("b.xml", "ibkr-flex", "", buy("2024-01-05", 10, "T1")),
					brokerExport("a.csv", "ibkr-activity", "", buy("2024-01-05", 11, "T1"))}
			}, kept: []string{"a.csv"}, warn: []string{"one trade, counted once as a.csv:2"}},
		{name: "same_ref_two_formats_counted_once", buys: 1,
			sources: func(t *testing.T) []Source {
				return []Source{brokerExport("b.xml", "ibkr-flex", "U1", buy("2024-01-05", 10, "T1")),
					brokerExport("a.csv", "ibkr-activity", "", buy("2024-01-05", 10, "T1"))}
			}, kept: []string{"a.csv"}, warn: []string{"same broker reference"}},
		{name: "same_ref_different_broker_accounts_two_trades", buys: 2,
			sources: func(t *testing.T) []Source {
				return []Source{brokerExport("b.xml", "ibkr-flex", "U1", buy("2024-01-05", 10, "T1")),
					brokerExport("a.xml", "ibkr-flex", "U2", buy("2024-01-05", 10, "T1"))}
			}, kept: []string{"a.xml", "b.xml"}},
		{name: "label_is_not_a_broker_account", buys: 1,
			sources: func(t *testing.T) []Source {
				return []Source{brokerExport("b.xml", "ibkr-flex", "U1", buy("2024-01-05", 10, "T1")),
					brokerExport("a.xml", "ibkr-flex", "U1", buy("2024-01-05", 10, "T1"))}
			}, accounts: []AccountRule{{Glob: "a.xml", Label: "MINE", Type: "GIA", From: "accounts"}}, kept: []string{"a.xml"}},
		{name: "ledger_pasted_twice_counted_once", buys: 1,
			sources: func(t *testing.T) []Source {
				return []Source{ledger(t, "p.cgt", "2024-01-05 BUY VUSA 10 @ 50 GBP REF X1\n2024-01-05 BUY VUSA 10 @ 50 GBP REF X1\n")}
			}, kept: []string{"p.cgt"}, warn: []string{"p.cgt:2 repeats p.cgt:1, with the same REF X1"}},
		{name: "imported_ledger_beside_its_export_same_account", buys: 3,
			sources: func(t *testing.T) []Source {
				imported, _ := Combine([]Source{export(t, "t212.csv", t212, imports.Options{Account: "T212"})})
				var b strings.Builder
				for _, tx := range imported {
					b.WriteString(dsl.Format(tx))
				}
				return []Source{ledger(t, "t212.cgt", b.String()), export(t, "t212.csv", t212, imports.Options{Account: "T212"})}
			}, kept: []string{"t212.cgt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.sources(t))
			permutations(n, func(order []int) {
				all := tc.sources(t)
				srcs := make([]Source, n)
				for i, o := range order {
					srcs[i] = all[o]
				}
				srcs, _, err := applyAccounts(srcs, tc.accounts)
				if err != nil {
					t.Fatal(err)
				}
				txns, warnings, err := CombineContext(context.Background(), srcs)
				if err != nil {
					t.Fatal(err)
				}
				if got := count(txns, model.Buy); got != tc.buys {
					t.Errorf("order %v: %d buys, want %d; warnings %q", order, got, tc.buys, warnings)
				}
				var files []string
				for _, tx := range txns {
					if tx.Action == model.Buy && !slices.Contains(files, tx.Source.File) {
						files = append(files, tx.Source.File)
					}
				}
				slices.Sort(files)
				want := slices.Clone(tc.kept)
				slices.Sort(want)
				if !slices.Equal(files, want) {
					t.Errorf("order %v: buys kept from %v, want %v", order, files, want)
				}
				all2 := strings.Join(warnings, "\n")
				for _, w := range tc.warn {
					if !strings.Contains(all2, w) {
						t.Errorf("order %v: warnings lack %q:\n%s", order, w, all2)
					}
				}
			})
		})
	}
}

func TestIdentityStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows := make([]model.Transaction, 1<<16)
	for i := range rows {
		rows[i] = buy("2024-01-05", int64(i+1), "")
	}
	a := brokerExport("a.csv", "x", "", rows...)
	b := brokerExport("b.csv", "x", "", slices.Clone(rows)...)
	if _, _, err := CombineContext(ctx, []Source{a, b}); err == nil {
		t.Fatal("a cancelled combine finished")
	}
}
