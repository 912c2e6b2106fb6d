package toolcli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// MCPServerConfig is one entry of an mcpServers config file: a program
// speaking MCP over stdio.
type MCPServerConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// mcpConfigFile is the config file format Claude Desktop uses.
type mcpConfigFile struct {
	MCPServers map[string]MCPServerConfig `json:"mcpServers"`
}

// LoadMCPConfig reads an mcpServers config file and returns one stdio
// provider per server it names. The children's stderr goes to stderr
// (nil discards it).
func LoadMCPConfig(path string, stderr io.Writer) (map[string]ProviderFactory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file mcpConfigFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if file.MCPServers == nil {
		return nil, fmt.Errorf(`%s: no "mcpServers" object`, path)
	}
	providers := make(map[string]ProviderFactory, len(file.MCPServers))
	for name, cfg := range file.MCPServers {
		if cfg.Command == "" {
			return nil, fmt.Errorf(`%s: server %q: "command" is required (only stdio servers are supported)`, path, name)
		}
		providers[name] = StdioProvider(cfg, stderr)
	}
	return providers, nil
}

// StdioProvider starts cfg.Command as a child process speaking MCP on its
// stdin and stdout, with cfg.Env added to this process's environment.
// The child's stderr goes to stderr (nil discards it).
func StdioProvider(cfg MCPServerConfig, stderr io.Writer) ProviderFactory {
	env := cfg.envList()
	return func(context.Context) (mcpclient.MCPClient, error) {
		var opts []transport.StdioOption
		if stderr != nil {
			opts = append(opts, transport.WithCommandStderrWriter(stderr))
		}
		c, err := mcpclient.NewStdioMCPClientWithOptions(cfg.Command, env, cfg.Args, opts...)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

func (cfg MCPServerConfig) envList() []string {
	env := make([]string, 0, len(cfg.Env))
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}
