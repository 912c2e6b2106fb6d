//go:build !js

package commands

import "embed"

// schemaFiles are the argument and result schemas of every command, reflected from their Go
// types by cgt gen (schemas/<command>.input.json and .data.json) and checked for drift, so that
// running a command never reflects a schema.
//
//go:embed schemas/*.json
var schemaFiles embed.FS
