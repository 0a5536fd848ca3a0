/*
The `obj` package defines Marshaller and Unmarshaller types,
which can be used to convert in-memory values to token streams,
and token streams to unpack in-memory values.
*/
package obj
