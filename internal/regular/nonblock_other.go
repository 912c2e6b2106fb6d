//go:build !unix

package regular

const nonBlock = 0
