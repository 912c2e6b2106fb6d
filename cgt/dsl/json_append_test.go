package dsl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// AppendJSON writes what encoding/json writes (no HTML escaping), indented at any level and
// on one line, for every transaction of the example ledgers and for values with every
// optional member, text that needs escaping and an index instead of a line.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	var all []JSONTransaction
	files, _ := filepath.Glob("../../examples/*.cgt")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		txns, err := Parse(filepath.Base(f), src)
		if err != nil {
			continue // an example that needs rates or other files
		}
		for _, tx := range txns {
			all = append(all, ToJSON(tx))
		}
	}
	if len(all) < 20 {
		t.Fatalf("only %d transactions read from the examples", len(all))
	}
	idx := 7
	amt := &JSONAmount{Amount: "1.50", Currency: "USD"}
	all = append(all, JSONTransaction{}, JSONTransaction{Date: "2024-01-02", Action: "TAKEOVER", Ticker: `A"B<&>\` + "\u2028\x01é",
		NewTicker: "N", Quantity: "3", Price: amt, Fees: amt, Total: amt, Tax: amt, Ratio: "2", Fraction: "0.5",
		Cost: amt, Cash: amt, Value: amt, AccountType: "ISA", Account: "acc", ISIN: "GB0000000001", Name: "x\ty",
		BrokerRef: "r", Source: &JSONSource{File: "f", Line: 3, Index: &idx}}, JSONTransaction{Source: &JSONSource{}})
	for i := range all {
		j := &all[i]
		for _, level := range []int{0, 1, 3} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(j); err != nil {
				t.Fatal(err)
			}
			indented := bytes.ReplaceAll(bytes.TrimSuffix(want.Bytes(), []byte("\n")), []byte("\n"), append([]byte("\n"), bytes.Repeat([]byte("  "), level)...))
			if got := j.AppendJSON(nil, level, true); !bytes.Equal(got, indented) {
				t.Fatalf("level %d:\n got %s\nwant %s", level, got, indented)
			}
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(j)
		if got := j.AppendJSON([]byte("x"), 0, false); !bytes.Equal(got, append([]byte("x"), bytes.TrimSuffix(want.Bytes(), []byte("\n"))...)) {
			t.Fatalf("one line:\n got %s\nwant %s", got, want.Bytes())
		}
	}
}
