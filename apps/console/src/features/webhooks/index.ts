export { DeliveryLog } from './components/delivery-log';
export { WebhooksScreen } from './components/webhooks-screen';
