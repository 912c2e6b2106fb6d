//go:build js

package commands

import (
	"github.com/cgt-tools/cgt/cgt/fx"
	"github.com/cgt-tools/cgt/registry"
)

// withCache is the bundled rates alone in the browser module, which has no rate cache (its
// front end gives none): fx.WithCache, left out, brought time.Time's text and JSON methods
// with it (the cache's record of when it last looked), 5 KB gzipped.
func withCache(registry.RatesCache) fx.Source { return fx.Embedded() }
