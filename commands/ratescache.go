//go:build !js

package commands

import (
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/registry"
)

// withCache is the bundled rates with the months of the front end's rate cache after them.
func withCache(cache registry.RatesCache) fx.Source { return fx.WithCache(fx.Embedded(), cache) }
