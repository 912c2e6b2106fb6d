package commands

import (
	"fmt"

	"github.com/cgt-tools/cgt/cgt/taxyear"
)

// parseYear reads a year argument given as a start year (2024) or a tax year ("2024/25").
func parseYear(v any) (taxyear.Year, bool, error) {
	if v == nil {
		return taxyear.Year{}, false, nil
	}
	s := fmt.Sprint(v)
	if s == "" {
		return taxyear.Year{}, false, nil
	}
	y, err := taxyear.Parse(s)
	return y, err == nil, err
}
