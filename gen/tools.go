package gen

import (
	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// Catalog builds cgt's own catalog from the registry, marked as generated (catalog.Own).
func Catalog(reg *registry.Registry) *catalog.Catalog { return catalog.Own(reg) }

// Tools renders tools.json from the catalog.
func Tools(c *catalog.Catalog) ([]byte, error) { return catalog.JSON(c) }
