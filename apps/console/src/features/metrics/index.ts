// What the app layer mounts: the /metrics dashboard, the /streams/metrics/:id screen, and the compact
// panel for the stream dashboard (`<StreamMetricsPanel streamId={id} compact />`).
export { MetricsDashboard } from './components/metrics-dashboard';
export { StreamMetricsPanel } from './components/stream-metrics-panel';
export { StreamMetricsScreen } from './components/stream-metrics-screen';
