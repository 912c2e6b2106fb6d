// Package jsoncodec reads and writes JSON as Go 1.26's encoding/json does, for the browser
// module: the same values, the same bytes and the same error messages for the kinds of Go
// values cgt decodes and encodes, in two thirds of encoding/json's share of the module.
// Native programs use encoding/json itself (internal/jsonx chooses); the tests hold this
// package to encoding/json by differential fuzzing, and make test-jsoncodec runs the tests of
// every package the module links through it.
//
// Not supported, and an error rather than a different answer: decoding a field with the
// ",string" option, and base64 into a []byte. There is no DisallowUnknownFields. MarshalText
// and UnmarshalText are not consulted, for values or map keys (a map key is a string or a
// whole number): linking them would keep every such method of every type in the module, and
// no type cgt encodes or decodes has them without MarshalJSON and UnmarshalJSON (gen's
// TestRegistryInvariants checks every command's arguments and result).
package jsoncodec
