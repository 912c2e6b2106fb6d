package commands

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/envelope"
	"github.com/cgt-tools/cgt/registry"
)

// readRateFiles reads every file named, expanding directories to their .xml files. A file
// named twice (itself and through its directory) is read once.
func readRateFiles(deps *registry.Deps, paths []string) ([]fx.File, error) {
	var files []fx.File
	seen := map[string]bool{}
	for _, p := range paths {
		names, listed, err := rateFileNames(deps, p)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if seen[filepath.Clean(n)] {
				continue
			}
			seen[filepath.Clean(n)] = true
			data, err := readRateFile(deps, n)
			if err != nil {
				return nil, err
			}
			files = append(files, fx.File{Name: n, Data: data, Listed: listed})
		}
	}
	return files, nil
}

// rateFileNames is the path itself for a file, or the .xml files of a directory (listed).
func rateFileNames(deps *registry.Deps, p string) ([]string, bool, error) {
	if p == "-" || strings.TrimSpace(p) == "" {
		return nil, false, envelope.New(envelope.InvalidArgument, fmt.Sprintf("rates %q is not a file name", p),
			"Name the HMRC rate file you downloaded, or the directory that holds it; rates are not read from standard input.",
			ratesExample).With("value", p).With("argument", "rates")
	}
	if deps.ReadDir == nil {
		return []string{p}, false, nil
	}
	names, err := deps.ReadDir(p)
	if errors.Is(err, registry.ErrNotDir) {
		return []string{p}, false, nil
	}
	if err != nil {
		return nil, false, rateReadError(p, err)
	}
	var xmlFiles []string
	for _, n := range names {
		if strings.EqualFold(filepath.Ext(n), ".xml") {
			xmlFiles = append(xmlFiles, filepath.Join(p, n))
		}
	}
	if len(xmlFiles) == 0 {
		return nil, false, noXMLFiles(p, len(names))
	}
	return xmlFiles, true, nil
}

// noXMLFiles says a folder given as rates has no .xml file; it counts the other files and
// never names them (the folder may hold anything).
func noXMLFiles(dir string, others int) error {
	msg := "rates directory " + dir + " holds no .xml files"
	if others > 0 {
		msg += fmt.Sprintf(" (it holds %d other file(s), not read)", others)
	}
	return envelope.New(envelope.InvalidArgument, msg,
		"Put HMRC's monthly exchange-rate XML files in the directory, or name the files themselves. "+ratesDownload,
		"cgt report.calculate ledger.cgt --rates rates/", ratesExample).
		With("value", dir).With("path", dir).With("argument", "rates")
}

func readRateFile(deps *registry.Deps, p string) ([]byte, error) {
	if deps.ReadFile == nil {
		return nil, envelope.New(envelope.PermissionDenied, "this front end cannot read files (rates "+p+")",
			"Run the command in the CLI, or through a server started with --root DIR.").With("path", p).With("argument", "rates")
	}
	data, err := deps.ReadFile(p)
	if err != nil {
		return nil, rateReadError(p, err)
	}
	return data, nil
}

// rateReadError keeps the front end's own error (a path outside the server's roots) with a
// hint about rate files, and makes any other failure an io_error naming the file.
func rateReadError(p string, err error) error {
	var ee *envelope.Error
	if errors.As(err, &ee) {
		if ee.Code == envelope.PermissionDenied {
			ee.Hint = "Name a rate file inside the directories this server may read, or ask the operator to add its directory with --root DIR."
		}
		return ee.With("argument", "rates")
	}
	return envelope.New(envelope.IOError, "cannot read rate file "+p+": "+unwrapPathError(err),
		"Check the path; relative paths are relative to the working directory.", ratesExample).
		With("path", p).With("argument", "rates")
}

// readMonths reads the files as HMRC months (fx.ReadFiles), giving its errors the rates
// argument, the download hint and an example.
func readMonths(files []fx.File) ([]fx.FileMonth, []string, error) {
	months, warnings, err := fx.ReadFiles(files)
	if err != nil {
		return nil, warnings, rateFileError(err)
	}
	return months, warnings, nil
}

// rateFileError is an fx rate-file error as the commands give it.
func rateFileError(err error) error {
	e := envelope.FromError(err).With("argument", "rates")
	if _, conflict := e.Context["files"]; conflict {
		files, _ := e.Context["files"].([]string)
		if len(files) > 0 {
			e.Examples = []string{"cgt report.calculate ledger.cgt --rates " + files[0]}
		}
		return e
	}
	e.Hint = strings.TrimSpace(e.Hint + " " + ratesDownload)
	if len(e.Examples) == 0 {
		e.Examples = []string{ratesExample}
	}
	return e
}
