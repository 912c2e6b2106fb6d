package main

import (
	"reflect"
	"testing"
)

func TestKeepTag(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`json:"a"`, `json:"a"`},
		{`json:"a,omitempty" jsonschema_description:"An \"x\" value, e.g. 5."`, `json:"a,omitempty"`},
		{`jsonschema:"enum=a,enum=b" json:"k" record:"kind=money" jsonschema_description:"d"`, `json:"k" record:"kind=money"`},
		{`jsonschema_description:"only"`, ``},
		{`cgt:"positional"  json:"p"`, `cgt:"positional" json:"p"`},
		{`not a tag`, `not a tag`},
		{`json:"unterminated`, `json:"unterminated`},
	} {
		if got := keepTag(c.in); got != c.want {
			t.Errorf("keepTag(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := reflect.StructTag(keepTag(c.in)).Get("json"); c.in != "not a tag" && got != reflect.StructTag(c.in).Get("json") {
			t.Errorf("keepTag(%q) changes the json key to %q", c.in, got)
		}
	}
}

func TestStripTagsKeepsEverythingElse(t *testing.T) {
	src := "package p\n\n// T is kept.\ntype T struct {\n\tA int `json:\"a\" jsonschema_description:\"Alpha.\"` // a comment\n\tB string `json:\"b\"`\n\tC struct {\n\t\tD bool `jsonschema:\"title=d\"`\n\t}\n}\n\nconst s = `jsonschema_description:\"not a tag\"`\n"
	want := "package p\n\n// T is kept.\ntype T struct {\n\tA int `json:\"a\"` // a comment\n\tB string `json:\"b\"`\n\tC struct {\n\t\tD bool ``\n\t}\n}\n\nconst s = `jsonschema_description:\"not a tag\"`\n"
	got, changed, err := stripTags("p.go", []byte(src))
	if err != nil || !changed || string(got) != want {
		t.Fatalf("stripTags: changed %v, err %v\n%s\nwant\n%s", changed, err, got, want)
	}
	if _, changed, _ := stripTags("p.go", []byte(want)); changed {
		t.Fatal("stripTags changed a file without jsonschema tags")
	}
}
