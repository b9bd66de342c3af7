import Hummingbird
import Mnemo

// The shared JSON vocabulary, answered through the request context's `responseEncoder`.
extension FactJSON: ResponseEncodable {}
extension SearchResultsJSON: ResponseEncodable {}
extension TopicNodeJSON: ResponseEncodable {}
extension TopicDetailJSON: ResponseEncodable {}
extension KnowledgeBaseStats: ResponseEncodable {}
extension TopicMergeReport: ResponseEncodable {}
extension ErrorJSON: ResponseEncodable {}
extension ErasureReceipt: ResponseEncodable {}
extension ChangePageJSON: ResponseEncodable {}
