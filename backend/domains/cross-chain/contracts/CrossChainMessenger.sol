// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/**
 * The message contracts of the two interchain protocols (docs/decisions/048). One of each is deployed on every
 * chain involved by the relayer's account, which alone delivers. A message sent on the source chain gets the
 * next sequence number and an event; the relayer reads the event and calls `deliver` on the target chain's
 * contract, which refuses a replay (source chain id, source contract, sequence) and calls the target with the
 * message's data, the delivery's origin readable meanwhile (`originChainId`, `originSender`). A target that
 * reverts makes the delivery revert with its reason, so the relayer sees it and retries.
 */
abstract contract MessengerBase {
    address public immutable relayer;
    uint64 public nextSequence;
    mapping(bytes32 => bool) public delivered;

    /** The origin of the delivery under way (zero outside a delivery). */
    uint256 public originChainId;
    address public originSender;

    event MessageDelivered(uint256 indexed sourceChainId, address indexed sourceContract, uint64 indexed sequence, address target);

    constructor() {
        relayer = msg.sender;
    }

    function _next() internal returns (uint64 sequence) {
        sequence = nextSequence;
        nextSequence = sequence + 1;
    }

    function deliver(uint256 sourceChainId, address sourceContract, uint64 sequence, address sender, address target, bytes calldata data) external {
        require(msg.sender == relayer, "only the relayer delivers");
        bytes32 key = keccak256(abi.encode(sourceChainId, sourceContract, sequence));
        require(!delivered[key], "message already delivered");
        require(target.code.length > 0, "no contract at the target address");
        delivered[key] = true;
        originChainId = sourceChainId;
        originSender = sender;
        (bool ok, bytes memory result) = target.call(data);
        originChainId = 0;
        originSender = address(0);
        if (!ok) {
            if (result.length == 0) revert("the target reverted without a reason");
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        emit MessageDelivered(sourceChainId, sourceContract, sequence, target);
    }
}

/** Protocol 1: the enterprise interchain framework's hub. */
contract InterchainHub is MessengerBase {
    event MessageSent(uint64 indexed sequence, address indexed sender, string targetChain, address target, bytes data);

    function send(string calldata targetChain, address target, bytes calldata data) external returns (uint64 sequence) {
        sequence = _next();
        emit MessageSent(sequence, msg.sender, targetChain, target, data);
    }
}

/** Protocol 2: the second framework's bridge; every message names the sending service's APPCode. */
contract AppChainBridge is MessengerBase {
    event AppMessageSent(uint64 indexed sequence, address indexed sender, string appCode, string targetChain, address target, bytes data);

    function send(string calldata appCode, string calldata targetChain, address target, bytes calldata data) external returns (uint64 sequence) {
        require(bytes(appCode).length > 0, "an APPCode is required");
        sequence = _next();
        emit AppMessageSent(sequence, msg.sender, appCode, targetChain, target, data);
    }
}

interface IMessengerOrigin {
    function originChainId() external view returns (uint256);
    function originSender() external view returns (address);
}

/** Receives text messages (both protocols): keeps each with its origin. */
contract MessageInbox {
    address public immutable messenger;
    struct Received {
        uint256 sourceChainId;
        address sender;
        string text;
    }
    Received[] public received;

    event MessageReceived(uint256 indexed index, uint256 sourceChainId, address sender, string text);

    constructor(address messenger_) {
        messenger = messenger_;
    }

    function receiveMessage(string calldata text) external {
        require(msg.sender == messenger, "only the messenger");
        require(bytes(text).length > 0, "empty message");
        IMessengerOrigin m = IMessengerOrigin(messenger);
        received.push(Received(m.originChainId(), m.originSender(), text));
        emit MessageReceived(received.length - 1, m.originChainId(), m.originSender(), text);
    }

    function count() external view returns (uint256) {
        return received.length;
    }
}
