package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cgt-tools/cgt/envelope"
)

// Layer one: argv -> front-end options and the words left for the command's binder.
func TestSplitOptions(t *testing.T) {
	cases := []struct {
		name string
		argv []string
		opts Options
		rest []string
	}{
		{"defaults", []string{"a.cgt"}, Options{}, []string{"a.cgt"}},
		{"anywhere", []string{"--output", "compact", "a.cgt", "year=2024", "--fields=gain,proceeds"},
			Options{Output: "compact", Fields: []string{"gain", "proceeds"}}, []string{"a.cgt", "year=2024"}},
		{"limits", []string{"-o", "schema", "--max-records", "5", "--max-chars=900", "x"},
			Options{Output: "schema", MaxRecords: 5, MaxChars: 900}, []string{"x"}},
		{"out_and_help", []string{"--out", "r.json", "--help"}, Options{Out: "r.json", Help: true}, nil},
		{"command_flags_pass_through", []string{"--year", "2024", "--json", "{}"}, Options{}, []string{"--year", "2024", "--json", "{}"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts, rest, err := splitOptions(tc.argv)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(opts, tc.opts) || !reflect.DeepEqual(rest, tc.rest) {
				t.Errorf("got %+v %q, want %+v %q", opts, rest, tc.opts, tc.rest)
			}
		})
	}
}

func TestSplitOptionsErrors(t *testing.T) {
	for _, argv := range [][]string{{"--output", "yaml"}, {"--output"}, {"--max-records", "-1"}, {"--max-chars", "many"}} {
		if _, _, err := splitOptions(argv); err == nil || err.Code != envelope.UsageError {
			t.Errorf("%v: want a usage error, got %v", argv, err)
		}
	}
}

// Layer two: a result -> what is printed, and the exit code.
func TestEmitExitCodesAndFormats(t *testing.T) {
	ok := envelope.Success(map[string]string{"a": "b"}, []string{"w"})
	bad := envelope.Failure(envelope.New(envelope.ParseError, "line 2: nope", "fix it"), nil)
	usage := envelope.Failure(envelope.New(envelope.UsageError, "unknown argument", ""), nil)
	cases := []struct {
		name   string
		format string
		res    envelope.Result
		code   int
		want   string
	}{
		{"json_ok", "json", ok, 0, `"warnings": [` + "\n" + `    "w"`},
		{"json_error", "json", bad, 1, `"code": "parse_error"`},
		{"compact_error", "compact", bad, 1, "error|parse_error|line 2: nope\n"},
		{"compact_warning_kept", "compact", ok, 0, "warning|w\n"},
		{"usage_exit_2", "json", usage, 2, `"usage_error"`},
		{"text_error", "text", bad, 1, "hint: fix it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			f := &Factory{Stdout: &out, Stderr: &out}
			code := emit(f, Options{Output: tc.format}, nil, tc.res)
			if code != tc.code || !strings.Contains(out.String(), tc.want) {
				t.Errorf("exit %d, output:\n%s\nwant exit %d containing %q", code, out.String(), tc.code, tc.want)
			}
		})
	}
}

type brokenPipe struct{ n int }

func (b *brokenPipe) Write(p []byte) (int, error) {
	if b.n += len(p); b.n > 8 {
		return 0, errors.New("broken pipe")
	}
	return len(p), nil
}

// --out writes the same document stdout would have received, or leaves the file alone and
// reports io_error; a stdout that stops mid-stream is an internal error, not a silent success.
func TestEmitOut(t *testing.T) {
	ok := envelope.Success(map[string]string{"a": "b"}, []string{"w"})
	dir := t.TempDir()
	for _, format := range []string{"json", "compact"} {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			f := &Factory{Stdout: &stdout, Stderr: &stderr}
			path := filepath.Join(dir, format+".out")
			if code := emit(f, Options{Output: format, Out: path}, nil, ok); code != 0 {
				t.Fatalf("exit %d, stdout %s", code, stdout.String())
			}
			var want bytes.Buffer
			emit(&Factory{Stdout: &want, Stderr: io.Discard}, Options{Output: format}, nil, ok)
			if got, _ := os.ReadFile(path); string(got) != want.String() || stdout.Len() != 0 || stderr.String() != "Written to: "+path+"\n" {
				t.Errorf("file %q (want %q), stdout %q, stderr %q", got, want.String(), stdout.String(), stderr.String())
			}
		})
	}
	t.Run("missing_directory", func(t *testing.T) {
		var stdout bytes.Buffer
		path := filepath.Join(dir, "nowhere", "r.json")
		code := emit(&Factory{Stdout: &stdout, Stderr: io.Discard}, Options{Output: "json", Out: path}, nil, ok)
		if code != envelope.IOError.ExitCode() || !strings.Contains(stdout.String(), `"code": "io_error"`) || !strings.Contains(stdout.String(), `"w"`) {
			t.Errorf("exit %d, stdout %s", code, stdout.String())
		}
	})
	t.Run("stdout_stops", func(t *testing.T) {
		var stderr bytes.Buffer
		code := emit(&Factory{Stdout: &brokenPipe{}, Stderr: &stderr}, Options{Output: "json"}, nil, ok)
		if code != envelope.InternalError.ExitCode() || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("exit %d, stderr %s", code, stderr.String())
		}
	})
}

// A person at a terminal gets text unless they ask otherwise; a pipe or --out gets JSON.
func TestDefaultOutputFollowsTheTerminal(t *testing.T) {
	yes, no := func() bool { return true }, func() bool { return false }
	cases := []struct {
		name     string
		terminal func() bool
		opts     Options
		want     string
	}{
		{"terminal_gets_text", yes, Options{}, "text"},
		{"pipe_gets_json", no, Options{}, "json"},
		{"unknown_gets_json", nil, Options{}, "json"},
		{"out_file_gets_json", yes, Options{Out: "r.json"}, "json"},
		{"asked_for_wins", yes, Options{Output: "compact"}, "compact"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &Factory{IsTerminal: tc.terminal}
			if got := f.defaultOutput(tc.opts).Output; got != tc.want {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// In the formats people read, an error goes to standard error and nothing to standard output.
func TestTextErrorsGoToStderr(t *testing.T) {
	bad := envelope.Failure(envelope.New(envelope.ParseError, "line 2: nope", "fix it"), []string{"w"})
	for _, format := range []string{"text", "html"} {
		var stdout, stderr bytes.Buffer
		code := emit(&Factory{Stdout: &stdout, Stderr: &stderr}, Options{Output: format}, nil, bad)
		if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "error (parse_error): line 2: nope") ||
			!strings.Contains(stderr.String(), "warning: w") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", format, code, stdout.String(), stderr.String())
		}
	}
}
