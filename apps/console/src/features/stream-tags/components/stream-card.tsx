// What the stream tags feature adds to the stream dashboard (app/routes/stream-dashboard.tsx finds this file).
export { TagsCard as StreamCard } from './tags-card';
