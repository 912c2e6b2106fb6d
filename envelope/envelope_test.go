package envelope

import (
	"errors"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/cgt/model"
)

func TestEnvelopeShapes(t *testing.T) {
	ok := string(MarshalCompact(Success(map[string]int{"n": 1}, nil)))
	if ok != `{"ok":true,"data":{"n":1},"error":null,"warnings":[]}`+"\n" {
		t.Errorf("success envelope: %s", ok)
	}
	me := &model.Error{Code: model.CodeParse, Message: "expected '@'", Hint: "h", Examples: []string{"x"}, File: "a.cgt", Line: 3, Column: 21, Value: "150"}
	bad := string(MarshalCompact(Failure(me, []string{"kept"})))
	for _, want := range []string{`"ok":false`, `"data":null`, `"code":"parse_error"`, `"message":"a.cgt:3: expected '@'"`, `"line":3`, `"column":21`, `"file":"a.cgt"`, `"value":"150"`, `"warnings":["kept"]`} {
		if !strings.Contains(bad, want) {
			t.Errorf("failure envelope lacks %s: %s", want, bad)
		}
	}
	if c := FromError(errors.New("boom")).Code; c != InternalError {
		t.Errorf("plain errors are internal_error, got %s", c)
	}
	if !strings.Contains(string(MarshalIndent(Success("<&>", nil))), "<&>") {
		t.Error("HTML must not be escaped")
	}
}

func TestCodesAreUniqueAndExitCodes(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes {
		if seen[c.Code] || c.Description == "" {
			t.Errorf("code %s duplicated or undescribed", c.Code)
		}
		seen[c.Code] = true
		if c.ExitCode != c.Code.ExitCode() {
			t.Errorf("%s: published exit code %d, CLI uses %d", c.Code, c.ExitCode, c.Code.ExitCode())
		}
	}
}
