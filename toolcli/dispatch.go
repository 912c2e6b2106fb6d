package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cgt-tools/cgt/internal/callgate"
	"github.com/cgt-tools/cgt/internal/jsontext"
)

// params are a request's named parameters, as sent (the methods' parameters are these four;
// others are ignored); a missing params member reads as an empty object.
type params struct {
	Server              json.RawMessage `json:"server"`
	Tool                json.RawMessage `json:"tool"`
	Arguments           json.RawMessage `json:"arguments"`
	IncludeOutputSchema json.RawMessage `json:"includeOutputSchema"`
}

// get returns the parameter name as sent, or nil when it is absent.
func (p params) get(name string) json.RawMessage {
	switch name {
	case "server":
		return p.Server
	case "tool":
		return p.Tool
	case "arguments":
		return p.Arguments
	case "includeOutputSchema":
		return p.IncludeOutputSchema
	}
	return nil
}

// method answers one tool-cli method.
type method func(s *Server, ctx context.Context, p params) (any, *RPCError)

var methods = map[string]method{
	MethodListServers:  (*Server).listServers,
	MethodListTools:    (*Server).listTools,
	MethodDescribeTool: (*Server).describeTool,
	MethodCallTool:     (*Server).callTool,
}

func (s *Server) dispatch(ctx context.Context, name string, p params) (any, *RPCError) {
	m, ok := methods[name]
	if !ok {
		return nil, rpcErrorf(CodeMethodNotFound, "Method not found: %s", name)
	}
	return m(s, ctx, p)
}

func decodeParams(raw json.RawMessage) (params, *RPCError) {
	var p params
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return p, nil
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || json.Unmarshal(raw, &p) != nil {
		return params{}, rpcErrorf(CodeInvalidParams, "Invalid params: an object is required")
	}
	return p, nil
}

// str returns the string parameter name, which must be present.
func (p params) str(name string) (string, *RPCError) {
	raw := p.get(name)
	v, plain := jsontext.PlainString(raw)
	if !plain && (len(raw) == 0 || json.Unmarshal(raw, &v) != nil) || v == "" {
		return "", rpcErrorf(CodeInvalidParams, "Missing or invalid parameter: %q (string required)", name)
	}
	return v, nil
}

// flag returns the boolean parameter name; absent or null reads as false.
func (p params) flag(name string) (bool, *RPCError) {
	raw := bytes.TrimSpace(p.get(name))
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return false, nil
	}
	var v bool
	if json.Unmarshal(raw, &v) != nil {
		return false, rpcErrorf(CodeInvalidParams, "Missing or invalid parameter: %q (boolean required)", name)
	}
	return v, nil
}

// object returns the object parameter name; absent or null reads as {}.
func (p params) object(name string) (json.RawMessage, *RPCError) {
	raw := bytes.TrimSpace(p.get(name))
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	if raw[0] != '{' {
		return nil, rpcErrorf(CodeInvalidParams, "Missing or invalid parameter: %q (object required)", name)
	}
	return json.RawMessage(raw), nil
}

// examplesPerServer is how many tool names listServers shows per server.
const examplesPerServer = 3

func (s *Server) listServers(ctx context.Context, _ params) (any, *RPCError) {
	out := ServerList{Servers: make([]ServerSummary, len(s.names))}
	var wg sync.WaitGroup
	for i, name := range s.names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Servers[i] = s.summarize(ctx, name)
		}()
	}
	wg.Wait()
	return out, nil
}

// summarize starts the server if needed; a server that cannot start is
// listed with its error rather than failing the whole listing.
func (s *Server) summarize(ctx context.Context, name string) ServerSummary {
	sum := ServerSummary{Name: name, Examples: []string{}}
	conn, err := s.providers[name].current(ctx)
	if err != nil {
		sum.Error = err.Error()
		return sum
	}
	tools := conn.catalog.Load().tools
	sum.ToolCount = len(tools)
	for _, t := range tools[:min(examplesPerServer, len(tools))] {
		sum.Examples = append(sum.Examples, t.Name)
	}
	return sum
}

func (s *Server) listTools(ctx context.Context, p params) (any, *RPCError) {
	name, prov, rerr := s.server(p)
	if rerr != nil {
		return nil, rerr
	}
	conn, err := prov.current(ctx)
	if err != nil {
		return nil, internal(err)
	}
	return ToolList{Server: name, Tools: conn.catalog.Load().tools}, nil
}

// describeTool returns the tool's input schema; its output schema only when the call sets
// includeOutputSchema (listTools' hasStructuredOutput says whether there is one).
func (s *Server) describeTool(ctx context.Context, p params) (any, *RPCError) {
	_, desc, _, rerr := s.tool(ctx, p)
	if rerr != nil {
		return nil, rerr
	}
	want, rerr := p.flag("includeOutputSchema")
	if rerr != nil {
		return nil, rerr
	}
	if want {
		return desc, nil
	}
	out := *desc
	out.OutputSchema = nil
	return &out, nil
}

func (s *Server) callTool(ctx context.Context, p params) (any, *RPCError) {
	prov, desc, conn, rerr := s.tool(ctx, p)
	if rerr != nil {
		return nil, rerr
	}
	args, rerr := p.object("arguments")
	if rerr != nil {
		return nil, rerr
	}
	if err := s.calls.Enter(ctx); err != nil {
		var busy *callgate.Busy
		if errors.As(err, &busy) {
			return nil, &RPCError{Code: CodeServerBusy, Message: err.Error()}
		}
		return nil, internal(fmt.Errorf("the call was cancelled while it waited: %w", err))
	}
	defer s.calls.Started(ctx)() // a cancelled call frees its slot at once, while its work stops
	res, err := prov.callTool(ctx, conn, desc.Name, args)
	if err != nil {
		return nil, internal(err)
	}
	return res, nil
}

// server resolves the "server" parameter.
func (s *Server) server(p params) (string, *provider, *RPCError) {
	name, rerr := p.str("server")
	if rerr != nil {
		return "", nil, rerr
	}
	prov, ok := s.providers[name]
	if !ok {
		return "", nil, rpcErrorf(CodeInvalidParams, "Server %q not found. Connected: %s", name, strings.Join(s.names, ", "))
	}
	return name, prov, nil
}

// tool resolves the "server" and "tool" parameters, starting the server.
func (s *Server) tool(ctx context.Context, p params) (*provider, *ToolDescription, *connection, *RPCError) {
	server, prov, rerr := s.server(p)
	if rerr != nil {
		return nil, nil, nil, rerr
	}
	name, rerr := p.str("tool")
	if rerr != nil {
		return nil, nil, nil, rerr
	}
	conn, err := prov.current(ctx)
	if err != nil {
		return nil, nil, nil, internal(err)
	}
	desc, ok := conn.catalog.Load().byName[name]
	if !ok {
		return nil, nil, nil, rpcErrorf(CodeInvalidParams, "Tool %q not found on server %q", name, server)
	}
	return prov, desc, conn, nil
}

func internal(err error) *RPCError {
	return &RPCError{Code: CodeInternalError, Message: err.Error()}
}
