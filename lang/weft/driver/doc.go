// Package driver registers the weft front end with the weft command: it parses
// each verb's flags and wires the language's phases together.
package driver
