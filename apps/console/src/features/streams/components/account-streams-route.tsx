import { useParams } from 'react-router';
import { StreamsScreen } from './streams-screen';

/** /streams/account/{id}: one account's streams (ADMIN). */
export function AccountStreamsRoute() {
  const { id = '' } = useParams();
  return <StreamsScreen key={id} accountId={id} />;
}
