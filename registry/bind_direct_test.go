package registry

import (
	"encoding/json"
	"reflect"
	"testing"
)

type upperString string

func (u *upperString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*u = upperString("UP:" + s)
	return nil
}

type inner struct {
	Content string `json:"content"`
	Paths   []string
}

type pointed struct {
	Hidden string `json:"hidden"`
}

type twice struct {
	Name string `json:"name"`
}

type directArgs struct {
	inner
	*pointed
	Tagged  inner       `json:"tagged"`
	Name    string      `json:"name"`
	Year    int         `json:"year"`
	Custom  upperString `json:"custom"`
	Quoted  string      `json:"quoted,string"`
	Skipped string      `json:"-"`
	Bare    string
	twice
}

func TestPlainStringFieldsAreTheOnesJSONAssigns(t *testing.T) {
	got := plainStringFields(reflect.TypeFor[directArgs]())
	want := map[string][]int{
		"content": {0, 0}, // through an untagged embedded struct
		"name":    {3},    // the outer field; the embedded twice.Name is hidden, as in encoding/json
		"Bare":    {8},
	}
	// left out: a field through a pointer or a tagged struct, a named string type, ",string",
	// "-" and a non-string
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plainStringFields = %v, want %v", got, want)
	}
}

func TestBindSetsPlainStringsAndDecodesTheRest(t *testing.T) {
	c := &command[directArgs, struct{}]{direct: plainStringFields(reflect.TypeFor[directArgs]())}
	norm := map[string]any{"content": "2024-04-01 BUY AAPL 1 @ 1\n", "Bare": "b", "year": json.Number("2024"),
		"custom": "x", "name": "n"}
	args, err := c.bind(norm)
	if err != nil {
		t.Fatal(err)
	}
	if args.Content != "2024-04-01 BUY AAPL 1 @ 1\n" || args.Bare != "b" || args.Year != 2024 || args.Custom != "UP:x" || args.Name != "n" {
		t.Errorf("bind = %+v", args)
	}
	if _, ok := norm["content"]; !ok {
		t.Error("bind changed the caller's arguments")
	}
}

func TestPlainStringFieldsLeaveOutANameTwoFieldsClaim(t *testing.T) {
	// built at run time: vet rightly refuses the same json tag twice in source
	str := reflect.TypeFor[string]()
	typ := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: str, Tag: `json:"dup"`},
		{Name: "B", Type: str, Tag: `json:"dup"`},
	})
	if got := plainStringFields(typ); len(got) != 0 {
		t.Errorf("plainStringFields = %v, want none (encoding/json fills neither)", got)
	}
}

func TestPlainStringFieldsOfANonStruct(t *testing.T) {
	if got := plainStringFields(reflect.TypeFor[map[string]any]()); len(got) != 0 {
		t.Errorf("plainStringFields(map) = %v, want none", got)
	}
}

func TestBindSetsWholeNumbersDirectly(t *testing.T) {
	at := reflect.TypeFor[directArgs]()
	c := &command[directArgs, struct{}]{direct: plainStringFields(at), ints: plainIntFields(at)}
	if !reflect.DeepEqual(c.ints, map[string][]int{"year": {4}}) {
		t.Fatalf("plainIntFields = %v", c.ints)
	}
	for _, tc := range []struct {
		year    json.Number
		want    int
		wantErr bool
	}{{"2024", 2024, false}, {"-3", -3, false}, {"2024.5", 0, true}, {"1e3", 0, true}, {"99999999999999999999", 0, true}} {
		args, err := c.bind(map[string]any{"year": tc.year, "name": "n"})
		if (err != nil) != tc.wantErr || args.Year != tc.want || (err == nil && args.Name != "n") {
			t.Errorf("year %s: %+v, %v", tc.year, args, err)
		}
	}
}
