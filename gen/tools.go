package gen

import (
	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// Catalog builds cgt's own catalog from the registry, marked as generated.
func Catalog(reg *registry.Registry) *catalog.Catalog {
	c := catalog.Build(reg, catalog.Product())
	c.GeneratedBy = GeneratedBy
	return c
}

// Tools renders tools.json from the catalog.
func Tools(c *catalog.Catalog) ([]byte, error) { return CanonicalJSON(c) }
