package model

// NotComparable, as a struct's first field (`_ model.NotComparable`), makes the struct not
// comparable with == and not a map key. A decimal.Decimal holds a pointer, so == on a struct
// of amounts compares pointers rather than amounts: the compiler refuses it, and comparisons
// go through methods that compare values. It also keeps the equality function Go generates
// for every comparable struct out of the browser module, which links most of cgt's result
// types (docs/performance.md, "The browser app").
type NotComparable [0]func()
