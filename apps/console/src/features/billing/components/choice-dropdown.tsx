import Dropdown from 'react-bootstrap/Dropdown';

/** A dropdown whose caption is the choice, or the caption itself while the choice is 'All'. */
export function ChoiceDropdown<T extends string>({
  id,
  caption,
  choices,
  value,
  onChange,
}: {
  id: string;
  caption: string;
  choices: readonly T[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <Dropdown onSelect={(key) => key && onChange(key as T)}>
      <Dropdown.Toggle id={id} variant="outline-secondary">
        {value === 'All' ? (
          caption
        ) : (
          <>
            <span className="visually-hidden">{caption}: </span>
            {value}
          </>
        )}
      </Dropdown.Toggle>
      <Dropdown.Menu>
        {choices.map((choice) => (
          <Dropdown.Item key={choice} as="button" eventKey={choice} active={choice === value}>
            {choice}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
