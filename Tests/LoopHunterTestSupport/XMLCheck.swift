import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Well-formedness of XML outputs (HTML, JUnit) through Foundation's XMLParser.
package enum XMLCheck {
    package struct Element {
        package let name: String
        package let attributes: [String: String]
    }

    /// Every element of a document that Foundation's XMLParser accepts; a parse error fails.
    @discardableResult
    package static func expectWellFormed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Element] {
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)",
                sourceLocation: sourceLocation)
        return collector.elements
    }

    final class ElementCollector: NSObject, XMLParserDelegate {
        var elements: [Element] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            elements.append(Element(name: elementName, attributes: attributeDict))
        }
    }
}
